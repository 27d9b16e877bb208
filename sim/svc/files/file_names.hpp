// The names of a storage service's files, for phases that read what another phase wrote or what
// a scenario declared: a requests phase's keys, a train phase's latest checkpoint, a model's
// shard files. Pure bookkeeping (no simulated time): whether a named file still exists is the
// service's to say.
//
// A file set is the files named `path` or under `path/`, in name order (a model's shard files
// model-00001-of-00004.safetensors ...). Files on one server's own disks (a node-local copy) are
// named in that server's namespace, local_name(server, path).
#pragma once
#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace llsim {

class FileNames {
 public:
  void set(const std::string& name, size_t file) { names_[name] = file; }
  // The file last given `name`, or null.
  const size_t* find(const std::string& name) const;
  // The files named `path` or under `path/`, in name order (some may no longer exist).
  std::vector<size_t> under(const std::string& path) const;
  // A file set a phase will write (a train checkpoint), known before the simulation runs.
  void promise(const std::string& path) { promised_.insert(path); }
  // Whether files are named `path` or under it, or promised there.
  bool known(const std::string& path) const;

  static std::string local_name(size_t server, const std::string& path);

 private:
  std::map<std::string, size_t> names_;
  std::set<std::string> promised_;
};

// The name of shard `k` (from 1) of `shards` under `path`, as Hugging Face's safetensors
// checkpoints are split: path/model-00001-of-00004.safetensors. One shard is `path` itself.
std::string shard_name(const std::string& path, int64_t k, int64_t shards);

}  // namespace llsim
