// Contracts of the training phase's pluggable models (one registry each, chosen with `impl:`).
// All are pure decision logic without SimGrid; the train phase measures checkpoint costs through
// the simulated I/O path and hands them over.
#pragma once
#include "sim/core/random.hpp"
#include "sim/platform/platform_spec.hpp"
#include "sim/train/io_plan.hpp"
#include "sim/train/parallelism.hpp"

#include <limits>
#include <string>

namespace llsim {

// CheckpointLayout: who writes which bytes through which forwarding node to which OST.
class CheckpointLayout {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "checkpoint layout";
  static constexpr const char* kSelector      = "impl";
  virtual ~CheckpointLayout() = default;
  virtual IoPlan plan(const ModelState& model, const Parallelism& parallelism, const IoSystem& io) const = 0;
};

// CheckpointPolicy: compute time between two checkpoints, given the blocking cost C of one
// checkpoint (as measured), the job's mean time between failures M, and the iteration time.
class CheckpointPolicy {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "checkpoint policy";
  static constexpr const char* kSelector      = "impl";
  virtual ~CheckpointPolicy() = default;
  virtual double interval_s(double cost_s, double job_mtbf_s, double iteration_s) const = 0;
};

// Measured costs a checkpoint mode combines (seconds; 0 when not measured).
struct CheckpointCosts {
  double pfs_write_s   = 0;  // the whole checkpoint through the forwarding and storage tiers
  double pfs_read_s    = 0;
  double local_write_s = 0;  // every node writes its part to its own disk (multilevel)
  double local_read_s  = 0;
  double partner_s     = 0;  // copy to a partner node's disk (multilevel partner/xor)
  int64_t nodes        = 1;  // compute nodes (coordinated protocol cost)
};

// CheckpointMode: how a checkpoint stops training and when it becomes durable where.
class CheckpointMode {
 public:
  struct Context {
    const PlatformSpec& platform;
    const GroupSpec& nodes;
    double node_state_B;  // largest share of the checkpoint one node holds
  };
  static constexpr const char* kInterfaceName = "checkpoint mode";
  static constexpr const char* kSelector      = "impl";
  virtual ~CheckpointMode() = default;

  virtual bool needs_local_level() const { return false; }
  // Training stops this long for checkpoint number `index` (1-based).
  virtual double blocking_s(const CheckpointCosts& c, int64_t index) const = 0;
  // After the blocking part, writing to the parallel file system goes on this long in the
  // background (0: done when blocking ends); -1: this checkpoint never reaches it.
  virtual double background_s(const CheckpointCosts& c, int64_t index) const = 0;
  // Whether the checkpoint is restorable from a node-local level after one node fails, and at
  // what read cost; otherwise the newest checkpoint on the parallel file system is used.
  virtual bool local_survives_node_failure() const { return false; }
  virtual double local_recovery_s(const CheckpointCosts&) const { return 0; }
  // Bytes written per checkpoint outside the parallel file system (node-local levels).
  virtual double local_bytes(double /*checkpoint_B*/, int64_t) const { return 0; }
};

// FileStatePolicy: the files a job writes between checkpoints (logs, data-loader state, indices).
struct FileWorkload {
  int64_t count       = 0;
  double size_B       = 0;  // per file
  double write_Bps    = 0;  // bytes written per second of training, all files together
  double append_share = 0;  // of the written bytes, appended
  double overwrite_share = 0;
  double read_only_share = 0;  // of the files, never written
  double block_B      = 4096;
  double total_B() const { return static_cast<double>(count) * size_B; }
};

class FileStatePolicy {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "file-state policy";
  static constexpr const char* kSelector      = "impl";
  virtual ~FileStatePolicy() = default;
  // Bytes saved with a checkpoint when `written_B` were written since the previous one.
  virtual double saved_bytes(const FileWorkload& f, double written_B) const = 0;
  // Whether rolling back leaves the files inconsistent with the restored process state.
  virtual bool inconsistent_on_rollback() const { return false; }
  // Bytes kept besides checkpoints (versions) for `written_B` written.
  virtual double kept_bytes(const FileWorkload&, double) const { return 0; }
};

// FailureModel: when the job's nodes fail. Failures of the whole job, in time order.
struct Failure {
  double time_s = std::numeric_limits<double>::infinity();
  int64_t node  = -1;
};

class FailureModel {
 public:
  struct Context {
    int64_t nodes;
  };
  static constexpr const char* kInterfaceName = "failure model";
  static constexpr const char* kSelector      = "impl";
  virtual ~FailureModel() = default;
  // The first failure strictly after `after` (seconds from the phase start).
  virtual Failure next_failure(double after, Rng& rng) = 0;
  // Mean time between failures of the whole job (infinite: none).
  virtual double job_mtbf_s() const = 0;
};

}  // namespace llsim
