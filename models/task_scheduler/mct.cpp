// Scheduler `mct`: minimum completion time, immediate mode. Tasks in arrival order, each to the
// worker (free or busy: the task joins its queue) with the smallest expected completion time
// CT = max(now, ready) + ETC; the worker's ready time then grows by the task's ETC.
// Keys: window, period (see sim/mw/task_scheduler.hpp). Source: Braun et al., JPDC 2001.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_fcfs_identical.yaml --set 'phases.bag.scheduler={impl: mct}'
#include "sim/core/registry.hpp"
#include "sim/mw/task_scheduler.hpp"

#include <algorithm>

namespace llsim {

namespace {

class MctScheduler : public TaskScheduler {
 public:
  MctScheduler(const Params& p, const Context&)
      : TaskScheduler(p)
  {}

  std::vector<Assignment> schedule(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers,
                                   double now) const override
  {
    const Eigen::MatrixXd etc = expected_times(tasks, workers);
    std::vector<double> ready;
    for (const auto& w : workers)
      ready.push_back(std::max(now, w.ready_s));
    std::vector<Assignment> out;
    for (size_t t = 0; t < tasks.size() && !workers.empty(); ++t) {
      size_t best = 0;
      for (size_t m = 1; m < workers.size(); ++m)
        if (ready[m] + etc(t, m) < ready[best] + etc(t, best))
          best = m;
      ready[best] += etc(t, best);
      out.push_back({t, best});
    }
    return out;
  }
};

}  // namespace

LLSIM_REGISTER(TaskScheduler, "mct", MctScheduler, "arrival order, to the worker that would finish it first",
               TaskScheduler::common_params());

}  // namespace llsim
