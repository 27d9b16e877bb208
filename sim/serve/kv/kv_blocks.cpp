#include "sim/serve/kv/kv_blocks.hpp"

namespace llsim {

namespace {

int power_of_two_shift(int64_t n)
{
  if (n <= 0 || (n & (n - 1)) != 0)
    return -1;
  int shift = 0;
  while ((int64_t{1} << shift) < n)
    shift += 1;
  return shift;
}

}  // namespace

KvBlocks::KvBlocks(const KvBlocksConfig& config)
    : config_(config)
    , block_shift_(power_of_two_shift(config.block_size))
    , free_(config.total)
{
  if (config_.prefix_caching)
    cache_ = std::make_unique<LruBlockCache>(0);
}

int64_t KvBlocks::cached_blocks(const std::vector<uint64_t>& ids) const
{
  return cache_ ? static_cast<int64_t>(cache_->cached_prefix(ids)) : 0;
}

void KvBlocks::remember(const std::vector<uint64_t>& ids)
{
  if (!cache_)
    return;
  // The blocks just freed count as free room for the cache. Last block first, as vLLM frees a
  // sequence's blocks in reverse order: the head, which every later hit needs, is evicted last.
  trim();
  cache_->use({ids.rbegin(), ids.rend()});
}

void KvBlocks::trim()
{
  if (cache_)
    cache_->set_capacity(static_cast<size_t>(free_ * config_.block_size / config_.hash_block_tokens));
}

void KvBlocks::forget()
{
  if (cache_)
    cache_ = std::make_unique<LruBlockCache>(0);
  trim();
}

void KvBlocks::reset()
{
  free_ = config_.total;
  forget();
}

}  // namespace llsim
