// Scheduler `locality`: a free worker takes the oldest task whose input it holds, or else the
// oldest task (delay-free locality scheduling, as Hadoop's and Spark's node-local first
// policies). Workers are served longest-free first; busy workers get nothing, so a task is bound
// to a worker only when the worker can start it. Tasks without located input (sent by the
// master) go in arrival order. Keys: window, period (see sim/mw/task_scheduler.hpp).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/preprocess_dedup.yaml --set 'phases.dedup.scheduler={impl: locality}'
#include "sim/core/registry.hpp"
#include "sim/mw/task_scheduler.hpp"

#include <vector>

namespace llsim {

namespace {

class LocalityScheduler : public TaskScheduler {
 public:
  LocalityScheduler(const Params& p, const Context&)
      : TaskScheduler(p)
  {}

  bool binds_late() const override { return true; }

  std::vector<Assignment> schedule(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers,
                                   double) const override
  {
    const std::vector<size_t> free = free_workers_longest_first(workers);
    std::vector<bool> taken(tasks.size(), false);
    size_t oldest = 0;  // the oldest task not taken yet
    std::vector<Assignment> out;
    for (size_t m : free) {
      while (oldest < tasks.size() && taken[oldest])
        ++oldest;
      if (oldest == tasks.size())
        break;
      size_t pick = oldest;
      for (size_t t = oldest; t < tasks.size(); ++t)
        if (!taken[t] && holds_input(tasks[t], workers[m])) {
          pick = t;
          break;
        }
      taken[pick] = true;
      out.push_back({pick, m});
    }
    return out;
  }
};

}  // namespace

LLSIM_REGISTER(TaskScheduler, "locality", LocalityScheduler,
               "a free worker takes a task whose input it holds, else the oldest", TaskScheduler::common_params());

}  // namespace llsim
