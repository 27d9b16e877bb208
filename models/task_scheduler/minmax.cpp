// Scheduler `minmax`: "unassigned min-max", late binding. At each scheduling event, the MaxMin
// rule (minimum completion time over workers, maximum over tasks) applied to the tasks still
// unassigned and to the workers free at that moment, one task per free worker; the other tasks
// stay unassigned for later events, when more is known. This is llsim's reading (min
// over workers, max over unassigned tasks; docs/phases/tasks.md); it differs from `maxmin`, which binds
// the whole window to worker queues at once. Keys: window, period. Source: the master-worker
// simulator of the founding documents; Braun et al., JPDC 2001 for the MaxMin rule.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_fcfs_identical.yaml --set 'phases.bag.scheduler={impl: minmax, window: 100}'
#include "sim/core/registry.hpp"
#include "sim/mw/batch_heuristic.hpp"

namespace llsim {

namespace {

class MinMaxScheduler : public TaskScheduler {
 public:
  MinMaxScheduler(const Params& p, const Context&)
      : TaskScheduler(p)
  {}

  bool binds_late() const override { return true; }

  std::vector<Assignment> schedule(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers,
                                   double now) const override
  {
    return batch_schedule(tasks, workers, now, BatchRule::MaxMin, true);
  }
};

}  // namespace

LLSIM_REGISTER(TaskScheduler, "minmax", MinMaxScheduler, "MaxMin over unassigned tasks and free workers, one each",
               TaskScheduler::common_params());

}  // namespace llsim
