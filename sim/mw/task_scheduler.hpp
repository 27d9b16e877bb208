// Contract of a task scheduler (registry "task_scheduler", chosen with `impl:`): pure decision
// logic, no SimGrid. At each scheduling event the master hands it the unassigned tasks (oldest
// first, at most `window` of them) and the workers it believes are up; the scheduler returns
// which task goes to which worker, in dispatch order. Tasks it leaves out stay unassigned.
//
// A worker runs one task at a time and keeps a queue of tasks assigned to it. Its ready time is
// when it will have finished its current task and its queue (now when it is free). Expected
// times come from an ETC matrix (Braun et al., JPDC 2001):
//   ETC(t, m) = flops(t) / speed(m) + (input(t) + output(t)) / bandwidth(m)
// where the input counts only when m does not hold it (a task whose input lies on some hosts).
//   CT(t, m)  = max(now, ready(m)) + ETC(t, m)
//
// Scheduling events (see mw/master_worker.hpp): a task arrives, a worker finishes a task or
// comes back, or the master notices a failure; two events are at least `period` apart; events
// follow each other while they assign tasks and unassigned tasks remain.
#pragma once
#include "sim/core/params.hpp"
#include "sim/platform/platform_spec.hpp"

#include <Eigen/Dense>

#include <cstddef>
#include <vector>

namespace llsim {

struct SchedTask {
  double flops;
  double input_B;
  double output_B;
  std::vector<HostId> input_hosts = {};  // hosts that hold its input (empty: the master sends it)
};

struct SchedWorker {
  double speed;          // flop/s
  double bandwidth_Bps;  // for the transfer part of ETC
  double ready_s;        // when its current work and queue are done (<= now: free)
  double free_since_s;   // when it last became free (meaningful when free)
  bool free;             // nothing running and nothing queued
  HostId host = 0;
};

// Whether the worker holds the task's input (then bringing it costs no network).
bool holds_input(const SchedTask& t, const SchedWorker& w);
// Indices of the free workers, the one free the longest first (ties in index order).
std::vector<size_t> free_workers_longest_first(const std::vector<SchedWorker>& workers);

struct Assignment {
  size_t task;    // index into the tasks given to schedule()
  size_t worker;  // index into the workers given to schedule()
};

Eigen::MatrixXd expected_times(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers);

class TaskScheduler {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "task_scheduler";
  static constexpr const char* kHeader        = "sim/mw/task_scheduler.hpp";
  static constexpr const char* kSelector      = "impl";

  explicit TaskScheduler(const Params& p);
  virtual ~TaskScheduler() = default;

  virtual std::vector<Assignment> schedule(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers,
                                           double now) const = 0;
  // True when it only ever assigns to free workers: the runtime then passes only those.
  virtual bool binds_late() const { return false; }

  size_t window() const { return window_; }
  double period_s() const { return period_s_; }

  // Parameters every scheduler has (window, period).
  static const ParamTable& common_params();

 private:
  size_t window_;
  double period_s_;
};

}  // namespace llsim
