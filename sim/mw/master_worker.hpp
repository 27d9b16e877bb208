// The master-worker runtime: one master actor that owns the unassigned tasks and asks the
// scheduler where they go, and one actor per worker host that runs its queue of tasks:
// download the input from the master, compute (checkpointing every `interval` of compute when
// the policy saves any), upload the output. Inputs, outputs and checkpoints cross the real
// network and disks; control messages (assignments, completions) are instantaneous.
//
// Failures come from the availability model, drawn per worker from its own random stream (so
// the outage times do not depend on the scheduler or the checkpoint policy). A worker that goes
// down loses its running task; the master notices `failure_timeout` later, puts that task and
// the worker's queue back among the unassigned tasks, and sees the worker again once it is up
// and the failure was noticed. A rescheduled task resumes from its checkpoint when the policy
// allows that worker to (paying the checkpoint read), or restarts from scratch.
//
// Scheduling events: a task arrives, a worker reports a completion or comes back, or a failure
// is noticed; a new event happens no sooner than the scheduler's `period` after the last one.
// An event hands the scheduler at most `window` unassigned tasks; when it assigned some and
// others remain, another event follows (after `period`).
// Late-binding schedulers (TaskScheduler::binds_late) only see free workers.
//
// SimGrid 3.32 keeps each I/O (checkpoint writes and reads) in the issuing actor's activity list
// until the actor ends; a worker issues few, so the cost stays small.
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/random.hpp"
#include "sim/mw/availability.hpp"
#include "sim/mw/scheduler.hpp"
#include "sim/mw/task.hpp"
#include "sim/mw/task_checkpointing.hpp"
#include "sim/sg/platform.hpp"

#include <simgrid/s4u.hpp>

#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace llsim {

struct MasterWorkerSetup {
  const Platform& platform;
  simgrid::s4u::Host* master;
  std::vector<simgrid::s4u::Host*> workers;
  double worker_bandwidth_Bps;  // for ETC estimates
  std::vector<simgrid::s4u::Host*> checkpoint_servers;
  const TaskScheduler& scheduler;
  const AvailabilityModel& availability;
  const TaskCheckpointing& checkpointing;
  double failure_timeout_s;
  double tracking_period_s;
  std::string label;  // for actor errors
};

struct MasterWorkerTotals {
  double makespan_s        = 0;
  double executed_flops    = 0;
  double useful_flops      = 0;
  double bytes_transferred = 0;  // completed transfers: inputs, outputs, checkpoints
  double checkpoint_bytes  = 0;  // checkpoints written
  double busy_s            = 0;  // compute time summed over workers
};

class MasterWorker {
 public:
  MasterWorker(MasterWorkerSetup setup, std::vector<Task> tasks, std::vector<Rng> worker_rngs);
  // Runs inside an actor from the phase start; returns when every task is done.
  void run();

  const std::vector<Task>& tasks() const { return tasks_; }
  const std::vector<TaskRecord>& records() const { return records_; }
  const MasterWorkerTotals& totals() const { return totals_; }
  const CsvWriter& tracking() const { return tracking_; }
  const CsvWriter& worker_states() const { return worker_states_; }  // time_s, worker, idle|busy|down
  double start_s() const { return start_s_; }
  CsvWriter worker_table() const;

 private:
  struct Message {
    enum class Kind { Done, Failed, Back } kind;
    size_t worker;
    long task;  // Done: the task; Failed: the task lost, or -1
    double visible_s;
  };
  struct WorkerState {
    simgrid::s4u::Host* host;
    Rng rng;
    Outage outage;                // next outage, absolute times
    std::deque<size_t> queue;     // assigned, not started
    double queued_etc_s = 0;      // sum of the queue's ETC
    long running        = -1;     // task being worked on
    double running_end_estimate_s = 0;
    bool alive          = true;   // ground truth, kept by the worker
    bool up_for_master  = true;   // what the master believes
    double free_since_s = 0;
    simgrid::s4u::MutexPtr mutex            = simgrid::s4u::Mutex::create();
    simgrid::s4u::ConditionVariablePtr wake = simgrid::s4u::ConditionVariable::create();
    // statistics
    int completed = 0, failures = 0;
    double busy_s = 0, down_s = 0;
  };

  // master side (master.cpp)
  void master_loop();
  void handle(const Message& m);
  size_t schedule(double now);  // one scheduling event; returns the number of tasks assigned
  void record_tracking(double now);
  double etc(size_t task, const WorkerState& w) const;
  // worker side (worker.cpp)
  void worker_loop(size_t w);
  bool run_task(size_t w, size_t task);  // false: the worker went down
  bool transfer(simgrid::s4u::Host* from, simgrid::s4u::Host* to, double bytes, double deadline);
  // False when `deadline` (the worker's next failure) comes first: the activity is then cancelled
  // and `remaining` (if given) receives what was left of it.
  bool wait_activity(const simgrid::s4u::ActivityPtr& a, double deadline, double* remaining = nullptr);
  bool write_checkpoint(size_t w, size_t task, double progress, double deadline);
  bool read_checkpoint(size_t w, size_t task, double deadline);
  void go_down(size_t w, long lost_task);
  void post(Message m);

  MasterWorkerSetup setup_;
  std::vector<Task> tasks_;
  std::vector<TaskRecord> records_;
  std::vector<SavedCheckpoint> saved_;
  std::vector<WorkerState> workers_;
  std::set<size_t> unassigned_;  // task indices, oldest first
  std::vector<Message> inbox_;
  simgrid::s4u::MutexPtr mutex_                 = simgrid::s4u::Mutex::create();
  simgrid::s4u::ConditionVariablePtr master_cv_ = simgrid::s4u::ConditionVariable::create();
  double start_s_ = 0;
  size_t done_    = 0;
  bool finished_  = false;
  MasterWorkerTotals totals_;
  CsvWriter tracking_;
  CsvWriter worker_states_;
};

}  // namespace llsim
