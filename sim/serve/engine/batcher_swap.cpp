// The batcher's swap of KV out and back in (batching.swap): the half of Batcher that moves
// sequences to the swap space and back (sim/serve/engine/batcher.hpp).
#include "sim/serve/engine/batcher.hpp"

#include "sim/sg/log.hpp"

#include <algorithm>

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(llsim_serve_batcher);

namespace llsim {

void Batcher::swap_failed(int64_t id, BatchWork& w)
{
  Seq& s                = seqs_.at(id);
  const auto was_out    = std::find(swapped_.begin(), swapped_.end(), id);
  const auto in_batch   = std::find(batch_.begin(), batch_.end(), id);
  const auto is_running = std::find(running_.begin(), running_.end(), id);
  if (was_out != swapped_.end()) {
    swapped_.erase(was_out);
    swap_free_ += s.swapped;
    s.swapped = 0;
  }
  if (in_batch != batch_.end()) {  // it had rejoined the decodes: one token on its context
    batch_.erase(in_batch);
    w.decodes -= 1;
    w.decode_context -= static_cast<double>(s.computed + 1);
    s.step = 0;
  }
  if (is_running != running_.end())
    running_.erase(is_running);
  recompute(id, s);
  trim_cache();
  XBT_DEBUG("recomputes request %ld (%ld tokens): its swapped KV did not arrive", static_cast<long>(id),
            static_cast<long>(s.prompt));
}

// A decoding sequence's KV goes to the swap space when the space holds it.
bool Batcher::swap_out(int64_t id, Seq& s)
{
  const int64_t blocks = blocks_for(s.computed);
  if (config_.swap_blocks == 0 || s.computed < s.prompt || blocks > swap_free_)
    return false;
  release(s);
  swap_free_ -= blocks;
  s.swapped = blocks;
  moves_.push_back({id, blocks, true});
  swapped_.insert(std::upper_bound(swapped_.begin(), swapped_.end(), id), id);
  XBT_DEBUG("swaps request %ld (the latest arrival) out: %ld KV blocks", static_cast<long>(id),
            static_cast<long>(blocks));
  return true;
}

int64_t Batcher::moved_blocks() const
{
  int64_t blocks = 0;
  for (const SwapMove& m : moves_)
    blocks += m.blocks;
  return blocks;
}

// Swapped sequences come back, earliest arrival first, while their blocks (and the next
// token's) are free, and join this iteration's decodes.
void Batcher::swap_in(BatchWork& w)
{
  while (!swapped_.empty() && running() < config_.max_batch_size && w.decodes < config_.max_batch_tokens) {
    const int64_t id = swapped_.front();
    Seq& s           = seqs_.at(id);
    // The watermark keeps room for running sequences; with none running it would only stall.
    if (blocks_for(s.computed + 1) > free_blocks_ - (running_.empty() ? 0 : config_.watermark_blocks))
      break;
    swapped_.erase(swapped_.begin());
    swap_free_ += s.swapped;
    moves_.push_back({id, s.swapped, false});
    s.swapped = 0;
    grow(s, s.computed);
    admit(id);
    take(id, s, 1, w);
  }
}

}  // namespace llsim
