// Scheduler `fcfs`: first come, first served. Tasks in arrival order, each to the free worker
// that has been free the longest (the one that became free first); busy workers get nothing, so
// a task is bound to a worker only when the worker can start it. Ignores speeds.
// Keys: window, period (see sim/mw/scheduler.hpp). Source: Braun et al., JPDC 2001 (OLB-like).
#include "sim/core/registry.hpp"
#include "sim/mw/scheduler.hpp"

#include <algorithm>
#include <numeric>

namespace llsim {

namespace {

class FcfsScheduler : public TaskScheduler {
 public:
  FcfsScheduler(const Params& p, const Context&) : TaskScheduler(p) {}

  bool binds_late() const override { return true; }

  std::vector<Assignment> schedule(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers,
                                   double) const override
  {
    std::vector<size_t> free;
    for (size_t m = 0; m < workers.size(); ++m)
      if (workers[m].free)
        free.push_back(m);
    std::stable_sort(free.begin(), free.end(),
                     [&](size_t a, size_t b) { return workers[a].free_since_s < workers[b].free_since_s; });
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
