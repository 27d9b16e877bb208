// Contract of the checkpoint_mode family (train `checkpoint.mode: {impl: ...}`): pure decision logic
// without SimGrid; the training runtime carries out the steps through the services.
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <cstdint>
#include <set>
#include <vector>

namespace llsim {

// The checkpoint I/O operations, each run through the services or charged its measured cost
// (sim/train/training_environment.hpp).
enum class IoKind {
  PfsWrite,    // the whole checkpoint through the forwarding and storage services
  PfsRead,     // reading it back
  LocalWrite,  // every writer to its own node's disks (node-local storage service)
  LocalRead,
  PartnerCopy,  // every writer to its partner node's disks (a share of its bytes)
};
const char* io_kind_name(IoKind kind);
inline bool is_write(IoKind kind)
{
  return kind == IoKind::PfsWrite || kind == IoKind::LocalWrite || kind == IoKind::PartnerCopy;
}
inline bool on_pfs(IoKind kind)
{
  return kind == IoKind::PfsWrite || kind == IoKind::PfsRead;
}

// One step of a checkpoint or of a recovery: an I/O operation, or a fixed pause (a snapshot to
// host memory, a quiesce protocol).
struct CheckpointStep {
  bool is_io     = true;
  IoKind io      = IoKind::PfsWrite;
  double share   = 1;  // PartnerCopy: share of each writer's bytes that goes to its partner
  double pause_s = 0;

  static CheckpointStep write(IoKind io, double share = 1) { return {true, io, share, 0}; }
  static CheckpointStep pause(double seconds) { return {false, IoKind::PfsWrite, 1, seconds}; }
};

// The host-memory tier of a multilevel mode: every checkpoint snapshots each node's state into
// its own host memory (training waits for the device-to-host copy), then copies it to its
// partner's host memory in the background. A snapshot is usable once that copy is over.
struct MemoryTier {
  bool on               = false;
  double snapshot_s     = 0;  // device to host (and back, to restore)
  double partner_copy_s = 0;  // a node's snapshot to its partner's memory (a rebuild moves two)
};

// Whether the parts of the writers in `lost` survive on their partners (writer w + offset, out of
// `writers`): false when a writer and its partner are both lost.
bool partners_survive(const std::set<size_t>& lost, size_t writers, size_t offset);

// CheckpointMode: how a checkpoint stops training and when it becomes durable where.
class CheckpointMode {
 public:
  struct Context {
    const PlatformSpec& platform;
    const GroupSpec& nodes;
    double node_state_B;  // largest share of the checkpoint one node holds
  };
  static constexpr const char* kInterfaceName = "checkpoint_mode";
  static constexpr const char* kHeader        = "sim/train/checkpoint_mode.hpp";
  static constexpr const char* kSelector      = "impl";
  virtual ~CheckpointMode()                   = default;

  virtual bool needs_local_level() const { return false; }
  // Whether checkpoint number `index` writes the node-local level (at its own interval).
  virtual bool writes_local(int64_t /*index*/) const { return needs_local_level(); }
  virtual MemoryTier memory_tier() const { return {}; }
  // Writers between a writer and the partner that holds its copies (node-local, memory).
  virtual size_t partner_offset() const { return 1; }
  // What checkpoint number `index` (1-based) does while training waits, in order (after waiting
  // for the previous background write to the parallel file system, if one is still going on).
  virtual std::vector<CheckpointStep> blocking(int64_t index) const = 0;
  // Whether it then writes to the parallel file system in the background while training goes on.
  virtual bool background_pfs(int64_t) const { return false; }
  // Whether it reaches the parallel file system at all (in its blocking steps or the background).
  virtual bool reaches_pfs(int64_t) const { return true; }
  // Restoring the newest node-local checkpoint: its steps, and whether that is possible after
  // the writers in `lost` (indices into the plan's writers, out of `writers`) lost their
  // node-local copies to failures.
  virtual std::vector<CheckpointStep> local_recovery() const { return {}; }
  virtual bool local_recoverable(const std::set<size_t>& /*lost*/, size_t /*writers*/) const { return false; }
  // Bytes written per checkpoint outside the parallel file system (node-local levels).
  virtual double local_B(double /*checkpoint_B*/, int64_t) const { return 0; }
};

}  // namespace llsim
