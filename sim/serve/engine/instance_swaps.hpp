// The KV a serving instance moves by preemption by swap (serve_instance.hpp): the moves an
// iteration's plan made (Batcher::swap_moves), over PCIe within the iteration's time or through a
// swap pool one sequence after the other, each recorded in the swap tally; and the KV swapped out
// that a failure of the instance's host loses. A sequence whose KV the pool rejected or no longer
// holds is recomputed.
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/serve/engine/batcher.hpp"
#include "sim/serve/kv/swap_tally.hpp"

namespace llsim {

class KvSwapPool;

class InstanceSwaps {
 public:
  InstanceSwaps(int instance, HostId host, Batcher& batcher, SwapTally& tally);

  // Moves go through `pool` (else to the host's CPU memory over PCIe, within the iteration).
  void set_pool(KvSwapPool& pool) { pool_ = &pool; }
  bool through_pool() const { return pool_ != nullptr; }
  // Makes the moves of the iteration just planned, before it computes; a sequence whose KV did
  // not make it is recomputed and leaves `work`. False when the host failed (at `fail_at`) while
  // the pool moved them: the moves not made are recorded failed, and the instance must fail.
  bool move(BatchWork& work, double fail_at);
  // The host failed: the KV swapped out is gone, each such sequence's return recorded failed.
  void lose_swapped();

 private:
  SwapTally::Move record(const SwapMove& m) const;

  int instance_;
  HostId host_;
  Batcher& batcher_;
  SwapTally& tally_;
  KvSwapPool* pool_ = nullptr;
};

}  // namespace llsim
