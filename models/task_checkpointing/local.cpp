// Task checkpointing `local`: every `interval` of compute a running task writes `size` bytes to
// its worker's own disk. Only that worker can resume from it, when it comes back and is given
// the task again (reading the checkpoint back from its disk); any other worker restarts the task
// from scratch. The worker group needs disks.
//   interval: duration, default 10min     size: size, required
// Source: the checkpoint-sharing comparison of the master-worker simulator of the founding
// documents (local vs shared checkpoint files).
#include "sim/core/registry.hpp"
#include "sim/mw/task_checkpointing.hpp"

namespace llsim {

namespace {

const ParamTable kLocalParams = {
    checkpoint_interval_param(),
    checkpoint_size_param(),
};

class LocalCheckpointing : public TaskCheckpointing {
 public:
  LocalCheckpointing(const Params& p, const Context& c) : interval_s_(p.quantity("interval")), size_B_(p.quantity("size"))
  {
    if (!c.workers.disks)
      p.ref().fail("local checkpoints are written to the workers' disks, but group '" + c.workers.name +
                   "' has no 'disks'");
  }
  CheckpointStore store() const override { return CheckpointStore::WorkerDisk; }
  double interval_s() const override { return interval_s_; }
  double size_B() const override { return size_B_; }
  bool can_resume(const SavedCheckpoint& saved, size_t worker) const override
  {
    return saved.worker == static_cast<long>(worker);
  }

 private:
  double interval_s_, size_B_;
};

}  // namespace

LLSIM_REGISTER(TaskCheckpointing, "local", LocalCheckpointing, "checkpoint on the worker's disk; only it can resume",
               kLocalParams);

}  // namespace llsim
