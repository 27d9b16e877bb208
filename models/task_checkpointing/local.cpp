// Task checkpointing `local`: every `interval` of compute a running task writes `size` bytes to
// its worker's own disks, through a storage service whose servers are the worker group (node-
// local storage: no network). Only that worker can resume from it, when it comes back and is
// given the task again (reading the checkpoint back); any other worker restarts the task from
// scratch.
//   interval: duration, default 10min     size: size, required     storage: service, required
// Source: the checkpoint-sharing comparison of the master-worker simulator of the founding
// documents (local vs shared checkpoint files).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_unreliable.yaml --set 'phases.bag.checkpoint={impl: local, interval: 5min, size: 100MB, storage: scratch}'
#include "sim/core/registry.hpp"
#include "sim/mw/task_checkpointing.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/storage.hpp"

namespace llsim {

namespace {

const ParamTable kLocalParams = {
    checkpoint_interval_param(),
    checkpoint_size_param(),
    checkpoint_storage_param(),
};

class LocalCheckpointing : public TaskCheckpointing {
 public:
  LocalCheckpointing(const Params& p, const Context& c)
      : interval_s_(p.quantity("interval"))
      , size_B_(p.quantity("size"))
      , storage_(&c.services.get<StorageService>(p, "storage"))
  {
    if (&storage_->servers() != &c.workers)
      p.fail("storage", "local checkpoints go to the workers' own disks: the servers of storage service '" +
                            storage_->name() + "' must be the worker group '" + c.workers.name + "', not '" +
                            storage_->servers().name + "'");
  }
  CheckpointStore store() const override { return CheckpointStore::WorkerDisk; }
  double interval_s() const override { return interval_s_; }
  double size_B() const override { return size_B_; }
  StorageService* storage() const override { return storage_; }
  bool can_resume(const SavedCheckpoint& saved, size_t worker) const override
  {
    return saved.worker == static_cast<long>(worker);
  }

 private:
  double interval_s_, size_B_;
  StorageService* storage_;
};

}  // namespace

LLSIM_REGISTER(TaskCheckpointing, "local", LocalCheckpointing, "checkpoint on the worker's disk; only it can resume",
               kLocalParams);

}  // namespace llsim
