// Task checkpointing `shared`: every `interval` of compute a running task uploads `size` bytes to
// a host of the `server` group (task i to server i mod servers; written to its disks when the
// group has disks). Any worker can resume the task, after downloading the checkpoint.
//   interval: duration, default 10min     size: size, required     server: group, required
// Source: the checkpoint-sharing comparison of the master-worker simulator of the founding
// documents (local vs shared checkpoint files).
#include "sim/core/registry.hpp"
#include "sim/mw/task_checkpointing.hpp"

namespace llsim {

namespace {

const ParamTable kSharedParams = {
    checkpoint_interval_param(),
    checkpoint_size_param(),
    ParamSpec::text("server", "group of checkpoint servers"),
};

class SharedCheckpointing : public TaskCheckpointing {
 public:
  SharedCheckpointing(const Params& p, const Context& c)
      : interval_s_(p.quantity("interval")), size_B_(p.quantity("size")), server_(c.platform.group_param(p, "server").name)
  {
  }
  CheckpointStore store() const override { return CheckpointStore::Server; }
  double interval_s() const override { return interval_s_; }
  double size_B() const override { return size_B_; }
  std::string server_group() const override { return server_; }
  bool can_resume(const SavedCheckpoint& saved, size_t) const override { return saved.server >= 0; }

 private:
  double interval_s_, size_B_;
  std::string server_;
};

}  // namespace

LLSIM_REGISTER(TaskCheckpointing, "shared", SharedCheckpointing,
               "checkpoint uploaded to a server group; any worker can resume", kSharedParams);

}  // namespace llsim
