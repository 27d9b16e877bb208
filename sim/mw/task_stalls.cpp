#include "sim/mw/task_stalls.hpp"

#include "sim/core/text.hpp"

#include <cmath>

namespace llsim {

bool TaskStalls::failed(size_t task, const FailedAttempt& attempt)
{
  TaskStall& s = stalls_[task];
  if (attempt.saved_flops > s.farthest_flops) {
    // Farther than ever: a fresh start of the count.
    s = {0, 0, attempt.saved_flops};
    return false;
  }
  s.attempts += 1;
  s.ran_s += attempt.ran_s;
  return s.attempts >= give_up_after_;
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
                     " or finished; an attempt needs " + readable_duration(f.needed_s) + " of compute";
  if (std::isfinite(f.checkpoint_s))
    text += " (" + readable_duration(f.checkpoint_s) + " to its next checkpoint)";
  text += ", and these lasted " + readable_duration(s.ran_s / static_cast<double>(s.attempts)) + " on average";
  if (std::isfinite(f.mtbf_s))
    text += " (the workers' MTBF is " + readable_duration(f.mtbf_s) + ")";
  return text + ": raise the workers' MTBF, split the work into shorter tasks, or checkpoint more often "
                "(give_up_after sets how many attempts in a row end the run)";
}

}  // namespace llsim
