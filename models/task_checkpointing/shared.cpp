// Task checkpointing `shared`: every `interval` of compute a running task writes `size` bytes to
// a storage service shared by all workers (a file per checkpoint, striped and placed by the
// service; created through its metadata service when it has one). Any worker can resume the
// task, after reading the checkpoint back over the network.
//   interval: duration, default 10min     size: size, required     storage: service, required
// Source: the checkpoint-sharing comparison of the master-worker simulator of the founding
// documents (local vs shared checkpoint files).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_unreliable.yaml --set 'phases.bag.checkpoint={impl: shared, interval: 5min, size: 100MB, storage: ckpt}'
#include "sim/core/registry.hpp"
#include "sim/mw/task_checkpointing.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/storage.hpp"

namespace llsim {

namespace {

const ParamTable kSharedParams = {
    checkpoint_interval_param(),
    checkpoint_size_param(),
    checkpoint_storage_param(),
};

class SharedCheckpointing : public TaskCheckpointing {
 public:
  SharedCheckpointing(const Params& p, const Context& c)
      : interval_s_(p.quantity("interval"))
      , size_B_(p.quantity("size"))
      , storage_(&c.services.get<StorageService>(p, "storage"))
  {}
  CheckpointStore store() const override { return CheckpointStore::Shared; }
  double interval_s() const override { return interval_s_; }
  double size_B() const override { return size_B_; }
  StorageService* storage() const override { return storage_; }
  bool can_resume(const SavedCheckpoint& saved, size_t) const override { return saved.worker >= 0; }

 private:
  double interval_s_, size_B_;
  StorageService* storage_;
};

}  // namespace

LLSIM_REGISTER(TaskCheckpointing, "shared", SharedCheckpointing,
               "checkpoint written to a shared storage service; any worker can resume", kSharedParams);

}  // namespace llsim
