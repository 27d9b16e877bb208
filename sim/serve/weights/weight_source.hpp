// Where a serve phase's instances get their weights (`weights:` of a serve phase). Without the
// section an instance starts with its weights in place, as before; with it, an instance reads
// them before it serves: at the phase's start and after every failure of its host.
//
//   weights: {path: models/llama3-70b, from: pfs}                 a shared file system
//   weights: {path: models/llama3-70b, from: nvme, fill_from: pfs} the host's own copy
//   weights: {path: models/llama3-70b, from: peers, fill_from: pfs} loaded peers, over the network
//   weights: {path: models/llama3-70b, from: dram, fill_from: pfs}  a memory pool caching them
//
// - The weights at `path` are a file set (sim/svc/files/file_names.hpp): files declared on the service
//   (`files:`) or written by an earlier phase (a train phase's newest checkpoint is named
//   <train phase>/checkpoint). Read in name order they are the model's weights, followed by
//   whatever else they hold (a training checkpoint's optimizer state, never read). A path nothing
//   declares or promises is an error at `path`, as is a declared set smaller than the weights;
//   a set missing when an instance loads (not written yet) or smaller is an error of the run.
// - An instance of tp x pp GPUs reads the model's weight bytes (all experts of a MoE model). Its
//   ranks read their slices of each file together, as tensor-parallel ranks do: one sequential
//   read per file, all files at once, in requests of `chunk` bytes; in_flight x ranks requests
//   are on their way, shared out over the files, at least one per file (sim/svc/file_stream.hpp).
//   An instance of pp stages (run as pp engines) loads once for all its engines (weight_share.hpp).
// - `from` a storage service one of whose servers is the instance's host: that server's own copy
//   (node-local disks). When it has none, the instance reads from `fill_from` and, once serving,
//   writes the copy there in the background; the copy outlives failures of the host (its disks
//   keep their files, as every storage service's do), so later loads read it. Without
//   fill_from, a set the service shares (declared without `local`) is read. fill_from is an
//   error when `from` is not on the instances' hosts.
// - `from: peers`: a broadcast among the phase's instances (weight_peers.hpp): a holder sends
//   them to one peer at a time, host to host; when no instance holds them, one reads them from
//   `fill_from` while the others wait.
// - `from` a memory_pool service: the pool caches the weights in pieces, put by an instance that
//   read them from `fill_from` while no other fills it (weight_pool.hpp), on other hosts than
//   the instances'.
// - A failure of the instance's GPU host cuts its load; the load starts over, from the first
//   byte, when the host is back. No instance serves with a partial load.
#pragma once
#include "sim/core/params.hpp"
#include "sim/core/yaml_ref.hpp"
#include "sim/platform/platform_spec.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

class HostFaults;
class Platform;
class ServiceDirectory;
class StorageService;

const ParamTable& weight_source_params();

// A load under way: `over()` once every byte is there; cancel() when the instance's host failed,
// it was released or the phase ended (no more bytes are asked for; those on their way are dropped).
class WeightLoad {
 public:
  virtual ~WeightLoad()                     = default;
  virtual bool over() const                 = 0;
  virtual void cancel()                     = 0;
  virtual const std::string& source() const = 0;  // "pfs", "nvme (own copy)", "peer instance 3", ...
};

// What loads: the instance, its host and ranks, and the model's weight bytes.
struct WeightTarget {
  int instance    = 0;
  HostId host     = 0;
  int64_t ranks   = 1;
  double weight_B = 0;
};

class WeightSource {
 public:
  // `weight_B`: the model's weight bytes (a declared set smaller is an error at `path`).
  WeightSource(const Params& p, ServiceDirectory& services, double weight_B, std::string label);
  ~WeightSource();
  // Once the system's instance groups are known: fill_from needs `from` on their hosts (a
  // located error at `key` of `p` otherwise).
  void check_instances(const Params& p, const std::string& key, const std::vector<const GroupSpec*>& groups) const;
  // Once every phase is loaded: the set is declared, or a phase promised it (a located error at
  // `path` otherwise).
  void check_known() const;

  // In the simulation, before any load.
  void start(const Platform& platform, HostFaults& faults);
  // The phase ended: work in the background stops (a pool's fill; a host's own copy goes on).
  void stop();
  // Starts a load; `changed` runs (in any actor) whenever it may be over.
  std::shared_ptr<WeightLoad> load(const WeightTarget& t, std::function<void()> changed);
  // An instance that completed its load: a peer source while `serving()` holds.
  void holds(int instance, HostId host, std::function<bool()> serving);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  YamlRef path_ref_;
};

}  // namespace llsim
