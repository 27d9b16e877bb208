// The bytes a master-worker task moves (master_worker.hpp), for the worker that runs it: its
// input, from the master or from copies on storage; its output, to the master or to storage with
// its replicas; its checkpoints through the checkpoint policy's storage; its spills to the
// worker's own disks. Each call blocks the worker's actor and returns false when `deadline`
// (the worker's next failure) comes first; storage out of space throws SimulationError. What
// moved is added to the totals.
#pragma once
#include "sim/mw/task.hpp"
#include "sim/mw/task_checkpointing.hpp"
#include "sim/svc/storage.hpp"

#include <vector>

namespace llsim {

class Platform;

struct TaskIoTotals {
  double transferred_B         = 0;  // completed transfers: inputs, outputs, checkpoints
  double checkpoint_B          = 0;  // checkpoints written
  double read_local_B          = 0;  // task inputs read from the data service on the worker's own disks
  double read_remote_B         = 0;  // task inputs read from the data service over the network
  double scratch_read_remote_B = 0;  // earlier tasks' outputs read from another worker
  double spill_B               = 0;  // written to the worker's disks and read back
  double written_remote_B      = 0;  // task outputs written to another host, over the network
};

struct TaskIoSetup {
  const Platform& platform;
  HostId master;
  const TaskCheckpointing& checkpointing;
  StorageService* data;     // where task inputs lie (Task::inputs) and outputs may go
  StorageService* scratch;  // the workers' own disks: local outputs and spills
};

class TaskIo {
 public:
  TaskIo(TaskIoSetup setup, const std::vector<Task>& tasks, TaskIoTotals& totals);

  bool read_input(HostId host, size_t task, double deadline);
  // The output's first copy is `record`'s output_file.
  bool write_output(HostId host, size_t task, TaskRecord& record, double deadline);
  // Replaces the task's previous checkpoint; `worker` is the one that wrote it.
  bool write_checkpoint(HostId host, size_t task, long worker, double progress, double deadline);
  bool read_checkpoint(HostId host, size_t task, double deadline);
  bool spill(HostId host, double bytes, double deadline);
  // The task's newest checkpoint (none: worker -1).
  const SavedCheckpoint& saved(size_t task) const { return saved_[task]; }

 private:
  bool transfer(HostId from, HostId to, double bytes, double deadline);

  TaskIoSetup setup_;
  const std::vector<Task>& tasks_;
  TaskIoTotals& totals_;
  std::vector<SavedCheckpoint> saved_;
  std::vector<FileId> saved_file_;  // per task: its newest checkpoint's file
};

}  // namespace llsim
