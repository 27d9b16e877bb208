// Scheduler `maxmin`: batch mode, early binding. Like minmin, but the task whose minimum
// completion time is the largest goes first, so long tasks are not left for the end. Every task
// of the window is queued on some worker. Keys: window, period. Source: Braun et al., JPDC 2001.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_fcfs_identical.yaml --set 'phases.bag.scheduler={impl: maxmin, window: 100}'
#include "sim/core/registry.hpp"
#include "sim/mw/batch_heuristic.hpp"

namespace llsim {

namespace {

class MaxMinScheduler : public TaskScheduler {
 public:
  MaxMinScheduler(const Params& p, const Context&)
      : TaskScheduler(p)
  {}

  std::vector<Assignment> schedule(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers,
                                   double now) const override
  {
    return batch_schedule(tasks, workers, now, BatchRule::MaxMin, false);
  }
};

}  // namespace

LLSIM_REGISTER(TaskScheduler, "maxmin", MaxMinScheduler, "batch: largest minimum completion time first",
               TaskScheduler::common_params());

}  // namespace llsim
