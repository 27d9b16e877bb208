#include "sim/serve/engine/instance_swaps.hpp"

#include "sim/serve/kv/kv_swap_pool.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"

#include <algorithm>
#include <vector>

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_instance_swaps, llsim_serve, "KV moved by preemption by swap");

namespace llsim {

InstanceSwaps::InstanceSwaps(int instance, HostId host, Batcher& batcher, SwapTally& tally)
    : instance_(instance)
    , host_(host)
    , batcher_(batcher)
    , tally_(tally)
{}

SwapTally::Move InstanceSwaps::record(const SwapMove& m) const
{
  SwapTally::Move r;
  r.start_s  = now();
  r.end_s    = now();
  r.instance = instance_;
  r.request  = m.id;
  r.out      = m.out;
  r.bytes    = static_cast<double>(m.blocks) * batcher_.block_B();
  r.to       = pool_ ? pool_->name() : "cpu";
  return r;
}

bool InstanceSwaps::move(BatchWork& work, double fail_at)
{
  const std::vector<SwapMove>& moves = batcher_.swap_moves();
  std::vector<int64_t> lost;  // sequences whose KV the pool did not keep
  double pcie_at = now();     // over PCIe the moves follow each other within the iteration's time
  for (size_t i = 0; i < moves.size(); ++i) {
    const SwapMove& m        = moves[i];
    SwapTally::Move r        = record(m);
    const double over_pcie_s = batcher_.swap_seconds(m.blocks);
    if (pool_) {
      r.outcome = pool_->move(host_, instance_, m.id, r.bytes, m.out, over_pcie_s, fail_at);
      r.end_s   = now();
    } else {
      r.start_s = pcie_at;
      r.end_s   = pcie_at += over_pcie_s;
      r.outcome = r.end_s <= fail_at ? SwapOutcome::Moved : SwapOutcome::Failed;
    }
    tally_.add(r);
    if (r.outcome != SwapOutcome::Moved)
      lost.push_back(m.id);
    if (pool_ && now() >= fail_at) {  // its host failed: the moves not made are lost too
      for (size_t j = i + 1; j < moves.size(); ++j) {
        SwapTally::Move rest = record(moves[j]);
        rest.outcome         = SwapOutcome::Failed;
        tally_.add(rest);
        lost.push_back(moves[j].id);
      }
      // Those whose KV never went out leave the swap space first, so that the failure records
      // only the KV it loses (lose_swapped).
      for (int64_t id : lost)
        batcher_.swap_failed(id, work);
      for (const SwapMove& planned : moves)
        pool_->forget(instance_, planned.id);
      return false;
    }
  }
  // Back to the front of the queue, the earliest arrival (lowest id) first, as recompute
  // preemption leaves them.
  std::sort(lost.begin(), lost.end());
  for (auto id = lost.rbegin(); id != lost.rend(); ++id) {
    XBT_DEBUG("instance %d: request %ld's swapped KV did not arrive: it is recomputed", instance_,
              static_cast<long>(*id));
    batcher_.swap_failed(*id, work);
  }
  return true;
}

void InstanceSwaps::lose_swapped()
{
  // Each sequence swapped out gets its `in`, failed (one whose `out` failed was recomputed
  // instead, in move, and is not swapped out).
  for (int64_t id : batcher_.swapped_out()) {
    SwapTally::Move r = record({id, batcher_.swapped_blocks(id), false});
    r.outcome         = SwapOutcome::Failed;
    tally_.add(r);
    if (pool_)
      pool_->forget(instance_, id);
  }
}

}  // namespace llsim
