// Scheduler `fcfs`: first come, first served. Tasks in arrival order, each to the free worker
// that has been free the longest (the one that became free first); busy workers get nothing, so
// a task is bound to a worker only when the worker can start it. Ignores speeds.
// Keys: window, period (see sim/mw/task_scheduler.hpp). Source: Braun et al., JPDC 2001 (OLB-like).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_fcfs_identical.yaml --set 'phases.bag.scheduler={impl: fcfs}'
#include "sim/core/registry.hpp"
#include "sim/mw/task_scheduler.hpp"

#include <algorithm>

namespace llsim {

namespace {

class FcfsScheduler : public TaskScheduler {
 public:
  FcfsScheduler(const Params& p, const Context&)
      : TaskScheduler(p)
  {}

  bool binds_late() const override { return true; }

  std::vector<Assignment> schedule(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers,
                                   double) const override
  {
    const std::vector<size_t> free = free_workers_longest_first(workers);
    std::vector<Assignment> out;
    for (size_t i = 0; i < std::min(tasks.size(), free.size()); ++i)
      out.push_back({i, free[i]});
    return out;
  }
};

}  // namespace

LLSIM_REGISTER(TaskScheduler, "fcfs", FcfsScheduler, "arrival order, to the worker free first",
               TaskScheduler::common_params());

}  // namespace llsim
