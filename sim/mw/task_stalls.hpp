// When a task cannot progress: the master-worker runtime stops the run (SimulationError) once a
// task has had `give_up_after` attempts in a row that a worker failure ended before the task
// got farther than it ever had, that is, before it finished or saved a checkpoint beyond its
// farthest one. Every attempt that does not count moves the task's farthest checkpoint forward
// or finishes it, so a run always ends, while a task that checkpoints its way forward (however
// short its workers' up times against its whole compute) is never stopped.
// Attempts far too short for the compute they need stop it sooner: once kMinStalledSample
// attempts in a row have failed, their mean length m estimates the workers' time between
// failures; with failures at that rate and memoryless (exponential), an attempt survives the
// compute c it needs (to its next checkpoint, or the end) with probability exp(-c/m), so
// exp(c/m) attempts are expected before one does. More than give_up_after of them: the task
// cannot progress. (Up times that are not memoryless, e.g. Weibull with shape < 1, make this
// estimate pessimistic; give_up_after sets both limits.)
// A task whose worker fails while the task waits in its queue gets no farther either: such a
// bounce counts as an attempt in a row (but not towards the estimate, having run no compute), so
// that a task whose workers fail faster than they take it up stops the run too. Pure decision
// logic.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace llsim {

// How an attempt that a failure cut short went.
struct FailedAttempt {
  double saved_flops = 0;  // work held by the task's newest checkpoint when it failed (0: none)
  double ran_s       = 0;  // from the attempt's start until its worker failed
  double needed_s    = 0;  // compute it needed to get farther: to its next checkpoint or the end
};

// Failed attempts in a row before their mean length is taken as the workers' time between failures.
constexpr int64_t kMinStalledSample = 20;

// The attempts in a row of one task that got it no farther.
struct TaskStall {
  int64_t attempts      = 0;  // bounces included
  int64_t bounces       = 0;  // of those, lost from a failed worker's queue before they started
  double ran_s          = 0;  // summed over those attempts
  double farthest_flops = 0;  // the most work a checkpoint of the task ever held
  double needed_s       = 0;  // what the last of them needed (FailedAttempt::needed_s)
  // Attempts expected before one survives needed_s, at the rate these show (infinite: all 0 s long).
  double expected_attempts() const;
};

class TaskStalls {
 public:
  TaskStalls(size_t tasks, int64_t give_up_after)
      : give_up_after_(give_up_after)
      , stalls_(tasks)
  {}
  // Records a failed attempt of `task`; true when the task cannot progress.
  bool failed(size_t task, const FailedAttempt& attempt);
  // Records that `task` went back from a failed worker's queue unstarted; true likewise.
  bool bounced(size_t task);
  const TaskStall& stall(size_t task) const { return stalls_[task]; }
  int64_t give_up_after() const { return give_up_after_; }

 private:
  int64_t give_up_after_;
  std::vector<TaskStall> stalls_;
};

// What the error says about a task that cannot progress: its attempts, the compute one attempt
// needs against how long its attempts lasted and the workers' MTBF (infinite: not known).
struct StallFigures {
  std::string task;
  int64_t attempts = 0;  // all of the task's attempts
  TaskStall stall;
  double needed_s     = 0;  // compute of its last attempt: from where it started to the task's end
  double flops        = 0;  // the task's whole work
  double checkpoint_s = 0;  // compute between two checkpoints (infinite: none)
  double mtbf_s       = 0;  // of the last attempt's worker
};
std::string stall_message(const StallFigures& f);

}  // namespace llsim
