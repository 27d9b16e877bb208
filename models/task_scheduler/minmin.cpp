// Scheduler `minmin`: batch mode, early binding. Over the whole window, repeatedly assign the task
// whose minimum completion time (over all workers, queues included) is the smallest, to that
// worker; update its ready time; repeat until every task of the window is queued somewhere.
// Favours short tasks on fast workers. Keys: window, period. Source: Braun et al., JPDC 2001.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_fcfs_identical.yaml --set 'phases.bag.scheduler={impl: minmin, window: 100}'
#include "sim/core/registry.hpp"
#include "sim/mw/batch_heuristic.hpp"

namespace llsim {

namespace {

class MinMinScheduler : public TaskScheduler {
 public:
  MinMinScheduler(const Params& p, const Context&)
      : TaskScheduler(p)
  {}

  std::vector<Assignment> schedule(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers,
                                   double now) const override
  {
    return batch_schedule(tasks, workers, now, BatchRule::MinMin, false);
  }
};

}  // namespace

LLSIM_REGISTER(TaskScheduler, "minmin", MinMinScheduler, "batch: smallest minimum completion time first",
               TaskScheduler::common_params());

}  // namespace llsim
