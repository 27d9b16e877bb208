// The master-worker runtime: one master actor that owns the unassigned tasks and asks the
// scheduler where they go, and one actor per worker host that runs its queue of tasks:
// download the input from the master, compute (checkpointing every `interval` of compute when
// the policy saves any), upload the output. A task whose input lies on storage (Task::inputs:
// the `data` service or the workers' own disks) reads a copy of each part instead, from the worker's own disks when
// it holds one, else over the network; its output may stay on the worker's disks (`scratch`)
// or go to `data` (on the worker's own disks when it is one of its servers); its spill is
// written to the worker's disks and read back. Inputs and outputs cross the real network;
// checkpoints go through the policy's storage service; control messages (assignments,
// completions) are instantaneous.
//
// Failures are the worker hosts' outages from the scenario's fault models (host_faults.hpp),
// each host with its own random stream (so they do not depend on the scheduler or the
// checkpoint policy). A worker that goes down loses its running task; the master notices `failure_timeout` later, puts that task and
// the worker's queue back among the unassigned tasks, and sees the worker again once it is up
// and the failure was noticed. A rescheduled task resumes from its checkpoint when the policy
// allows that worker to (paying the checkpoint read), or restarts from scratch. A task whose
// attempts keep failing without getting it farther stops the run (task_stalls.hpp).
//
// Scheduling events: a task arrives, a worker reports a completion or comes back, or a failure
// is noticed; a new event happens no sooner than the scheduler's `period` after the last one.
// An event hands the scheduler at most `window` unassigned tasks; when it assigned some and
// others remain, another event follows (after `period`).
// Late-binding schedulers (TaskScheduler::binds_late) only see free workers.
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/work_limits.hpp"
#include "sim/faults/fault_model.hpp"
#include "sim/mw/task.hpp"
#include "sim/mw/task_checkpointing.hpp"
#include "sim/mw/task_io.hpp"
#include "sim/mw/task_scheduler.hpp"
#include "sim/mw/task_stalls.hpp"
#include "sim/svc/storage.hpp"

#include <deque>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace llsim {

class HostFaults;
class Platform;
class WaitPoint;

struct MasterWorkerSetup {
  const Platform& platform;
  HostFaults& faults;
  HostId master;
  const GroupSpec& workers;
  const TaskScheduler& scheduler;
  const TaskCheckpointing& checkpointing;
  double failure_timeout_s;
  double tracking_period_s;
  std::string label;                  // for actor errors
  StorageService* data    = nullptr;  // where task inputs lie (Task::input_copies) and outputs may go
  StorageService* scratch = nullptr;  // the workers' own disks: local outputs and spills
  int64_t give_up_after   = 1000;     // failed attempts in a row of a task, no farther, that stop the run
  // Counts the tracking rows against their limit (work_limits.hpp), over the phase's runs (each
  // stage of a preprocess phase is one); none: not counted.
  WorkCounter* tracking_rows = nullptr;
  // Where the scenario sets the checkpoints' interval (Params::located), for the error when a
  // task asks for more than llsim simulates.
  std::string checkpoint_at;
};

// What the tasks moved (task_io.hpp), then what they computed.
struct MasterWorkerTotals : TaskIoTotals {
  double makespan_s     = 0;
  double executed_flops = 0;
  double useful_flops   = 0;
  double busy_s         = 0;  // compute time summed over workers
};

// The counter of a phase's tracking rows (a row per worker every period), its error located at
// `period_at` (Params::located of the period's key).
WorkCounter tracking_row_limit(const std::string& period_at);

class MasterWorker {
 public:
  MasterWorker(MasterWorkerSetup setup, std::vector<Task> tasks);
  ~MasterWorker();
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
    HostId host;
    double speed;                        // flop/s
    Outage outage;                       // the current or next outage
    std::deque<size_t> queue;            // assigned, not started
    double queued_etc_s           = 0;   // sum of the queue's ETC
    long running                  = -1;  // task being worked on
    double running_end_estimate_s = 0;
    double attempt_start_s        = 0;     // of the running task's attempt
    double attempt_from_flops     = 0;     // the work it resumed from
    bool alive                    = true;  // ground truth, kept by the worker
    bool up_for_master            = true;  // what the master believes
    double free_since_s           = 0;
    std::unique_ptr<WaitPoint> wake;  // the worker waits here for work
    // statistics
    int completed = 0, failures = 0;
    double busy_s = 0, down_s = 0;
  };

  // master side
  void master_loop();
  void handle(const Message& m);
  size_t schedule(double now);  // one scheduling event; returns the number of tasks assigned
  void record_tracking(double now);
  double etc(size_t task, const WorkerState& w) const;
  // worker side
  void worker_loop(size_t w);
  bool run_task(size_t w, size_t task);            // false: the worker went down
  void give_up_if_stalled(size_t w, size_t task);  // after run_task() returned false
  // Why `task` cannot progress (task_stalls.hpp), with the figures the error states.
  std::string stall_error(size_t w, size_t task, double needed_s, double checkpoint_s) const;
  double checkpoint_compute_s() const;  // compute between two checkpoints of a task (infinite: none)
  void go_down(size_t w, long lost_task);
  void post(Message m);

  MasterWorkerSetup setup_;
  std::vector<Task> tasks_;
  std::vector<TaskRecord> records_;
  std::vector<WorkerState> workers_;
  TaskStalls stalls_;
  // Set by the master when a task bounced from failed workers' queues cannot progress: the master
  // stops, the workers are let go, then run() throws it (unwinding with actors still waiting on
  // this object's wait points would abort SimGrid).
  std::string stalled_;
  std::set<size_t> unassigned_;  // task indices, oldest first
  std::vector<Message> inbox_;
  std::unique_ptr<WaitPoint> master_wake_;
  double start_s_ = 0;
  size_t done_    = 0;
  bool finished_  = false;
  MasterWorkerTotals totals_;
  TaskIo io_;  // after the tasks and totals it refers to
  CsvWriter tracking_;
  CsvWriter worker_states_;
};

}  // namespace llsim
