// The KVCache blocks of a disaggregated serving system, in tiers below the instances' HBM:
//   DRAM  a memory_pool service (Mooncake's pool over the nodes' CPU memory), with its own
//         capacity per server and eviction policy;
//   SSD   optionally, blocks written through to a storage service, one file per block, the
//         least recently used deleted beyond `capacity`.
// A block is a prefix hash id of a request (block_tokens tokens; the last block of a prompt may
// be shorter). Blocks move over the real network; calls block the calling actor. A block whose
// pool server or SSD server is down is treated as absent: it is neither waited for nor written.
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <cstdint>
#include <limits>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

namespace llsim {

class HostFaults;
class MemoryPool;
class StorageService;

class KvBlockStore {
 public:
  KvBlockStore(MemoryPool& pool, StorageService* ssd, double ssd_capacity_B, int64_t block_tokens,
               double kv_B_per_token);

  // Leading blocks of `ids` held in DRAM or on SSD.
  int64_t held_prefix(const std::vector<uint64_t>& ids) const;
  // Reads blocks [from, to) of a prompt of `input_tokens` to `host`, in order, DRAM first then
  // SSD; stops at the first block it cannot get. Returns the index after the last block read.
  int64_t fetch(HostId host, const std::vector<uint64_t>& ids, int64_t from, int64_t to, int64_t input_tokens);
  // Writes the prompt's blocks the pool lacks from `host` (and through to SSD), stopping at
  // `deadline` (when the host fails).
  void store(HostId host, const std::vector<uint64_t>& ids, int64_t input_tokens, double deadline);

  void set_faults(HostFaults& faults) { faults_ = &faults; }  // inside the simulation, before any call
  // Writes that finish after `t` (the phase's end) are the background drain: drain_B() of
  // blocks stored in either tier, the last at drain_end_s() (0 when none).
  void drain_from(double t) { drain_from_s_ = t; }
  double drain_B() const { return drain_B_; }
  double drain_end_s() const { return drain_end_s_; }
  double block_B(size_t index, int64_t input_tokens) const;
  double moved_B() const { return moved_B_; }  // over the network (a pool server's own blocks excluded)
  double peak_B() const { return peak_B_; }
  double evictions() const;

 private:
  bool on_ssd(uint64_t id) const { return ssd_files_.count(id) != 0; }
  // `deadline`, or earlier when a server holding the SSD file fails; now when one is down.
  double ssd_deadline(size_t file, double deadline) const;
  bool over_network(HostId host, const std::string& key) const;  // the block's pool server is elsewhere
  void write_to_ssd(HostId host, uint64_t id, double bytes, double deadline);
  void stored(double bytes);  // a block written to a tier, now

  MemoryPool& pool_;
  StorageService* ssd_;
  HostFaults* faults_ = nullptr;
  double ssd_capacity_B_;
  int64_t block_tokens_;
  double kv_B_per_token_;
  double moved_B_ = 0, peak_B_ = 0, ssd_used_B_ = 0, ssd_evictions_ = 0;
  double drain_from_s_ = std::numeric_limits<double>::infinity(), drain_B_ = 0, drain_end_s_ = 0;
  struct SsdBlock {
    size_t file;
    double bytes;
    std::list<uint64_t>::iterator at;
  };
  std::list<uint64_t> ssd_order_;  // most recently used first
  std::unordered_map<uint64_t, SsdBlock> ssd_files_;
};

}  // namespace llsim
