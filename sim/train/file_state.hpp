// Contract of the file_state family (train `checkpoint.file_state: {impl: ...}`): pure decision
// logic without SimGrid.
#pragma once
#include <cstdint>

namespace llsim {

// FileStatePolicy: the files a job writes between checkpoints (logs, data-loader state, indices).
// Every written byte is either appended or overwrites existing bytes.
struct FileWorkload {
  int64_t count          = 0;
  double size_B          = 0;  // per file
  double write_Bps       = 0;  // bytes written per second of training, all files together
  double append_share    = 1;  // of the written bytes, appended; the rest overwrites
  double read_only_share = 0;  // of the files, never written
  double block_B         = 4096;
  double total_B() const { return static_cast<double>(count) * size_B; }
  double overwrite_share() const { return 1 - append_share; }
};

class FileStatePolicy {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "file_state";
  static constexpr const char* kHeader        = "sim/train/file_state.hpp";
  static constexpr const char* kSelector      = "impl";
  virtual ~FileStatePolicy()                  = default;
  // Bytes saved with a checkpoint when `written_B` were written since the previous one.
  virtual double saved_B(const FileWorkload& f, double written_B) const = 0;
  // Whether rolling back leaves the files inconsistent with the restored process state.
  virtual bool inconsistent_on_rollback() const { return false; }
  // Bytes kept besides checkpoints (versions) for `written_B` written.
  virtual double kept_B(const FileWorkload&, double) const { return 0; }
};

}  // namespace llsim
