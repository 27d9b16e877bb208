// The files a storage service holds (storage.hpp), as bookkeeping: where each lies (its stripes
// over the targets, one server's disks for a node-local file, or the targets an object was
// written to), the names given to files, the bytes each target holds against its capacity, and
// those bytes integrated over time. No simulated time passes here: the service says when.
#pragma once
#include "sim/core/level_integral.hpp"
#include "sim/svc/files/file_names.hpp"
#include "sim/svc/files/stripe_layout.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace llsim {

using FileId = size_t;

// The targets of a service: `servers` x `disks_per_server`, target t being disk t / servers of
// server t mod servers; `capacity_B` per target.
struct TargetGrid {
  size_t servers = 1, disks_per_server = 1;
  double capacity_B = 0;
  size_t targets() const { return servers * disks_per_server; }
};

class StoredFiles {
 public:
  // `stripe_count` (0: all targets) and `stripe_B`: the service's default striping.
  StoredFiles(const TargetGrid& grid, int64_t stripe_count, double stripe_B);

  // A new file striped over `stripe_count` targets (0: all; -1: the default) by the round-robin
  // allocator; a local file on the disks of one server; an object, whose bytes lie where they
  // were written target by target.
  FileId new_file(int64_t stripe_count);
  FileId new_local_file(size_t server);
  FileId new_object();
  void remove(FileId f, double now_s);  // frees its bytes
  bool exists(FileId f) const { return files_.count(f) != 0; }

  FileNames& names() { return names_; }
  const FileNames& names() const { return names_; }
  const FileId* named(const std::string& name) const;  // if it still exists
  std::vector<FileId> file_set(const std::string& path) const;
  double set_B(const std::string& path) const;
  double file_B(FileId f) const;
  const StripeLayout& layout(FileId f) const { return files_.at(f).layout; }
  std::vector<std::pair<size_t, double>> parts(FileId f, double offset, double bytes) const;

  enum class Take { Taken, Removed, Full };
  // Counts `bytes` of `f` on `target` from `now_s`: Removed when the file is gone, Full when the
  // target has no room for them (nothing counted then).
  Take take(FileId f, size_t target, double bytes, double now_s);
  void give_back(FileId f, size_t target, double bytes, double now_s);  // of a write that failed

  double used(size_t target) const { return used_[target]; }
  double stored_B() const;
  double stored_byte_seconds(double end_s) const { return stored_.integral(end_s); }

 private:
  struct File {
    StripeLayout layout;
    // Bytes per target, sorted by target: a whole checkpoint object can span thousands of
    // targets, accounted in target order (appends), and a striped file only a few.
    std::vector<std::pair<size_t, double>> B_on_target;
    double& on(size_t target);
  };
  FileId add(const StripeLayout& layout);

  TargetGrid grid_;
  int64_t stripe_count_;
  double stripe_B_;
  std::unordered_map<FileId, File> files_;
  FileNames names_;
  std::vector<double> used_;  // per target
  LevelIntegral stored_;      // all targets
  FileId next_file_   = 0;
  size_t next_target_ = 0;  // round-robin allocator
};

}  // namespace llsim
