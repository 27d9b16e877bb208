// Where a serve phase's instances get their weights (`weights:` of a serve phase). Without the
// section an instance starts with its weights in place, as before; with it, an instance reads
// them before it serves: at the phase's start and after every failure of its host.
//
//   weights: {path: models/llama3-70b, from: pfs}                 a shared file system
//   weights: {path: models/llama3-70b, from: nvme, fill_from: pfs} the host's own copy
//   weights: {path: models/llama3-70b, from: peers, fill_from: pfs} loaded peers, over the network
//
// - The weights at `path` are a file set (sim/svc/file_names.hpp): files declared on the service
//   (`files:`) or written by an earlier phase (a train phase's newest checkpoint is named
//   <train phase>/checkpoint). Read in name order they are the model's weights, followed by
//   whatever else they hold (a training checkpoint's optimizer state, never read). A set missing
//   at load is an error naming the path; one smaller than the weights too.
// - An instance of tp x pp GPUs reads the model's weight bytes (all experts of a MoE model). Its
//   ranks read their slices of each file together, as tensor-parallel ranks do: one sequential
//   read per file, all files at once, in requests of `chunk` bytes; in_flight x ranks requests
//   are on their way, shared out over the files, at least one per file (sim/svc/file_stream.hpp).
//   With pp stages run as pp engines, each engine reads its 1/pp of the weights (the files in
//   name order) with tp ranks.
// - `from` a storage service one of whose servers is the instance's host: that server's own copy
//   (node-local disks). When it has none, the instance reads from `fill_from` and, once serving,
//   writes the copy there in the background; the copy outlives failures of the host (its disks
//   keep their files, as every storage service's do), so later loads read it.
// - `from: peers`: a broadcast among the phase's instances (weight_peers.hpp): a holder sends
//   them to one peer at a time, host to host; when no instance holds them, one reads them from
//   `fill_from` while the others wait.
// - A failure of the instance's host cuts its load; the load starts over, from the first byte,
//   when the host is back. No instance serves with a partial load.
#pragma once
#include "sim/core/params.hpp"
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

// A load under way: `over()` once every byte is there; cancel() when the instance's host failed
// (the bytes still moving are dropped).
class WeightLoad {
 public:
  virtual ~WeightLoad()                     = default;
  virtual bool over() const                 = 0;
  virtual void cancel()                     = 0;
  virtual const std::string& source() const = 0;  // "pfs", "nvme (own copy)", "peer instance 3", ...
};

// What loads: the instance, its host and ranks, and its part of the weights: part k of `parts`
// equal ones of the model's `weight_B` (an engine of a pp-stage instance; else 0 of 1).
struct WeightTarget {
  int instance    = 0;
  HostId host     = 0;
  int64_t ranks   = 1;
  double weight_B = 0;
  int64_t part = 0, parts = 1;
  double bytes() const { return weight_B / static_cast<double>(parts); }
  double offset() const { return bytes() * static_cast<double>(part); }
};

class WeightSource {
 public:
  WeightSource(const Params& p, ServiceDirectory& services, std::string label);
  ~WeightSource();

  // In the simulation, before any load.
  void start(const Platform& platform, HostFaults& faults);
  // Starts a load; `changed` runs (in any actor) whenever it may be over.
  std::shared_ptr<WeightLoad> load(const WeightTarget& t, std::function<void()> changed);
  // An instance that completed its load: a peer source while `serving()` holds.
  void holds(int instance, HostId host, std::function<bool()> serving);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace llsim
