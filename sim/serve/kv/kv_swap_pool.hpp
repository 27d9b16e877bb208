// Preemption by swap into a memory_pool service (batching.swap_to) instead of the GPU host's own
// CPU memory: a preempted sequence's KV is put into the pool as one block, over the network from
// the instance's host, and got back (then dropped from the pool) when the sequence resumes. The
// pool's capacity, threads and failures apply, and its traffic is counted with the rest of the
// service's. Swapped KV is pinned: the pool rejects a put it has no room for rather than evict
// another sequence's swapped KV (as vLLM's swap space never drops it). A block whose pool server
// is the instance's own host moves over PCIe, in `local_s`, instead of the network. Keys:
// swap/<phase>/<instance>/<request>.
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/serve/kv/swap_tally.hpp"

#include <cstdint>
#include <string>

namespace llsim {

class MemoryPool;

class KvSwapPool {
 public:
  KvSwapPool(MemoryPool& pool, const std::string& phase);

  // Blocking: moves request `id`'s KV of `bytes` out of `host` into the pool, or back from it.
  // Failed when `deadline` passes first.
  SwapOutcome move(HostId host, int instance, int64_t id, double bytes, bool out, double local_s, double deadline);
  // The instance lost the sequence: its KV leaves the pool (nothing when it holds none).
  void forget(int instance, int64_t id);
  const std::string& name() const;

 private:
  std::string key(int instance, int64_t id) const;

  MemoryPool& pool_;
  std::string prefix_;
};

}  // namespace llsim
