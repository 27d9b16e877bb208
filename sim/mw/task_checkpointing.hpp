// Contract of a task checkpoint-sharing policy (registry "task_checkpointing", chosen with
// `impl:`): where a running task's checkpoint goes and who may resume from it. Pure decision
// logic; the master-worker runtime writes and reads the checkpoints through the policy's storage
// service (sim/svc/storage.hpp), paying its real disks and network and its capacity.
#pragma once
#include "sim/core/params.hpp"
#include "sim/platform/platform_spec.hpp"

#include <limits>
#include <string>

namespace llsim {

class ServiceDirectory;
class StorageService;

enum class CheckpointStore {
  None,        // nothing is saved
  WorkerDisk,  // the worker's own disks: a storage service whose servers are the workers
  Shared,      // a storage service of other hosts, reachable by every worker
};

struct SavedCheckpoint {
  double progress_flops = 0;   // work the checkpoint holds
  long worker           = -1;  // who wrote it; -1: none
};

class TaskCheckpointing {
 public:
  struct Context {
    const PlatformSpec& platform;
    const GroupSpec& workers;
    ServiceDirectory& services;
  };
  static constexpr const char* kInterfaceName = "task_checkpointing";
  static constexpr const char* kHeader        = "sim/mw/task_checkpointing.hpp";
  static constexpr const char* kSelector      = "impl";

  virtual ~TaskCheckpointing()          = default;
  virtual CheckpointStore store() const = 0;
  // Compute time between two checkpoints of a running task (infinite: never).
  virtual double interval_s() const { return std::numeric_limits<double>::infinity(); }
  virtual double size_B() const { return 0; }
  virtual StorageService* storage() const { return nullptr; }
  // Whether `worker` may resume from `saved` rather than start the task from scratch.
  virtual bool can_resume(const SavedCheckpoint& saved, size_t worker) const = 0;
};

// The keys every saving policy has: interval (compute time between checkpoints), size and the
// storage service.
ParamSpec checkpoint_interval_param();
ParamSpec checkpoint_size_param();
ParamSpec checkpoint_storage_param();

}  // namespace llsim
