#include "sim/mw/task_stalls.hpp"

#include "sim/core/text.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

namespace llsim {

bool TaskStalls::failed(size_t task, const FailedAttempt& attempt)
{
  TaskStall& s = stalls_[task];
  if (attempt.saved_flops > s.farthest_flops) {
    // Farther than ever: a fresh start of the count.
    s = {0, 0, 0, attempt.saved_flops};
    return false;
  }
  s.attempts += 1;
  s.ran_s += attempt.ran_s;
  s.needed_s       = attempt.needed_s;
  const auto limit = static_cast<double>(give_up_after_);
  return s.attempts >= give_up_after_ || (s.attempts - s.bounces >= kMinStalledSample && s.expected_attempts() > limit);
}

bool TaskStalls::bounced(size_t task)
{
  TaskStall& s = stalls_[task];
  s.attempts += 1;
  s.bounces += 1;
  return s.attempts >= give_up_after_;
}

double TaskStall::expected_attempts() const
{
  const double mean_s = ran_s / static_cast<double>(attempts - bounces);
  return mean_s > 0 ? std::exp(needed_s / mean_s) : std::numeric_limits<double>::infinity();
}

std::string stall_message(const StallFigures& f)
{
  const TaskStall& s      = f.stall;
  const std::string saved = s.farthest_flops > 0
                                ? "past its farthest checkpoint (" + with_si_prefix(s.farthest_flops, "Flop") + " of " +
                                      with_si_prefix(f.flops, "Flop") + ")"
                                : "to a checkpoint";
  std::string text = "task " + f.task + " cannot progress: " + std::to_string(f.attempts) + " attempts, the last " +
                     std::to_string(s.attempts) + " in a row ended by a worker failure before the task got " + saved +
                     " or finished";
  if (s.bounces > 0)
    text += " (" + std::to_string(s.bounces) + " of them before it even started: its worker failed while it waited " +
            "in the worker's queue)";
  text += "; an attempt needs " + readable_duration(f.needed_s) + " of compute";
  if (std::isfinite(f.checkpoint_s))
    text += " (" + readable_duration(f.checkpoint_s) + " to its next checkpoint)";
  const int64_t started = s.attempts - s.bounces;
  if (started > 0)
    text +=
        ", and those that started lasted " + readable_duration(s.ran_s / static_cast<double>(started)) + " on average";
  if (std::isfinite(f.mtbf_s))
    text += " (the workers' MTBF is " + readable_duration(f.mtbf_s) + ")";
  if (started > 0) {
    char expected[32];
    std::snprintf(expected, sizeof expected, "%.3g", s.expected_attempts());
    text += "; at the failure rate they show, about " + std::string(expected) +
            " attempts would be needed for one to get farther";
  }
  return text + ": raise the workers' MTBF, split the work into shorter tasks, or checkpoint more often "
                "(give_up_after sets how many attempts in a row end the run)";
}

}  // namespace llsim
