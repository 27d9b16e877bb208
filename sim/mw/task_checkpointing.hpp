// Contract of a task checkpoint-sharing policy (registry "task checkpointing", chosen with
// `impl:`): where a running task's checkpoint goes and who may resume from it. Pure logic; the
// master-worker runtime pays the writes and reads on the real disks and network.
#pragma once
#include "sim/core/params.hpp"
#include "sim/platform/platform_spec.hpp"

#include <limits>
#include <string>

namespace llsim {

enum class CheckpointStore {
  None,        // nothing is saved
  WorkerDisk,  // the worker's own disk
  Server,      // a host of the checkpoint server group
};

struct SavedCheckpoint {
  double progress_flops = 0;  // work the checkpoint holds
  long worker           = -1;  // who wrote it
  long server           = -1;  // server host index (Server store)
};

class TaskCheckpointing {
 public:
  struct Context {
    const PlatformSpec& platform;
    const GroupSpec& workers;
  };
  static constexpr const char* kInterfaceName = "task checkpointing";
  static constexpr const char* kSelector      = "impl";

  virtual ~TaskCheckpointing() = default;
  virtual CheckpointStore store() const = 0;
  // Compute time between two checkpoints of a running task (infinite: never).
  virtual double interval_s() const { return std::numeric_limits<double>::infinity(); }
  virtual double size_B() const { return 0; }
  virtual std::string server_group() const { return ""; }
  // Whether `worker` may resume from `saved` rather than start the task from scratch.
  virtual bool can_resume(const SavedCheckpoint& saved, size_t worker) const = 0;
};

// The keys every saving policy has: interval (compute time between checkpoints) and size.
ParamSpec checkpoint_interval_param();
ParamSpec checkpoint_size_param();

}  // namespace llsim
