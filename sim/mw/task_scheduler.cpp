#include "sim/mw/task_scheduler.hpp"

#include <algorithm>

namespace llsim {

const ParamTable& TaskScheduler::common_params()
{
  static const ParamTable t = {
      ParamSpec::integer("window", "unassigned tasks considered at one scheduling event").defaults("1000").at_least(1),
      ParamSpec::quantity("period", Dimension::Duration, "minimum time between two scheduling events")
          .defaults("0s")
          .at_least(0),
  };
  return t;
}

TaskScheduler::TaskScheduler(const Params& p)
    : window_(static_cast<size_t>(p.integer("window")))
    , period_s_(p.quantity("period"))
{}

bool holds_input(const SchedTask& t, const SchedWorker& w)
{
  return std::find(t.input_hosts.begin(), t.input_hosts.end(), w.host) != t.input_hosts.end();
}

std::vector<size_t> free_workers_longest_first(const std::vector<SchedWorker>& workers)
{
  std::vector<size_t> free;
  for (size_t m = 0; m < workers.size(); ++m)
    if (workers[m].free)
      free.push_back(m);
  std::stable_sort(free.begin(), free.end(),
                   [&](size_t a, size_t b) { return workers[a].free_since_s < workers[b].free_since_s; });
  return free;
}

Eigen::MatrixXd expected_times(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers)
{
  Eigen::VectorXd flops(tasks.size()), bytes(tasks.size()), inv_speed(workers.size()), inv_bw(workers.size());
  for (size_t t = 0; t < tasks.size(); ++t) {
    flops[t] = tasks[t].flops;
    bytes[t] = tasks[t].input_B + tasks[t].output_B;
  }
  for (size_t m = 0; m < workers.size(); ++m) {
    inv_speed[m] = 1.0 / workers[m].speed;
    inv_bw[m]    = 1.0 / workers[m].bandwidth_Bps;
  }
  Eigen::MatrixXd etc = flops * inv_speed.transpose() + bytes * inv_bw.transpose();
  // A worker that holds a task's input reads it from its own disks: no network for it.
  for (size_t t = 0; t < tasks.size(); ++t)
    if (!tasks[t].input_hosts.empty())
      for (size_t m = 0; m < workers.size(); ++m)
        if (holds_input(tasks[t], workers[m]))
          etc(static_cast<Eigen::Index>(t), static_cast<Eigen::Index>(m)) -=
              tasks[t].input_B * inv_bw[static_cast<Eigen::Index>(m)];
  return etc;
}

}  // namespace llsim
