// The paged KV blocks of one serving instance, as vLLM's block manager keeps them
// (PagedAttention; Kwon et al., SOSP'23): `total` blocks of `block_size` tokens, those free, the
// blocks a prompt's admission must leave free (vLLM V0's watermark) and, with prefix caching,
// the prefix blocks of finished prompts kept in the free blocks, least recently used reclaimed
// first (prefix_cache.hpp). A sequence's holder keeps its own block count; the manager hands
// blocks out and takes them back. Plain logic: no simulated time passes.
#pragma once
#include "sim/serve/kv/prefix_cache.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace llsim {

struct KvBlocksConfig {
  int64_t total             = 0;
  int64_t block_size        = 16;
  int64_t watermark         = 0;  // blocks a prompt's admission leaves free
  bool prefix_caching       = false;
  int64_t hash_block_tokens = 512;  // tokens per prefix hash id (the Mooncake trace's block)
};

class KvBlocks {
 public:
  explicit KvBlocks(const KvBlocksConfig& config);

  int64_t total() const { return config_.total; }
  int64_t free() const { return free_; }
  int64_t used() const { return config_.total - free_; }
  double used_share() const
  {
    return config_.total > 0 ? static_cast<double>(used()) / static_cast<double>(config_.total) : 0;
  }
  int64_t watermark() const { return config_.watermark; }
  int64_t block_size() const { return config_.block_size; }
  // The blocks `tokens` tokens of context take. Every sequence of every iteration asks: where the
  // block size is a power of two, a shift gives what the division gives, without its latency.
  int64_t blocks_for(int64_t tokens) const
  {
    const int64_t rounded_up = tokens + config_.block_size - 1;
    if (block_shift_ >= 0 && rounded_up >= 0)
      return rounded_up >> block_shift_;
    return rounded_up / config_.block_size;
  }

  // Grows a holder of `held` blocks to `tokens` tokens of context; false, taking none, when too
  // few blocks are free. Inline: every sequence of every iteration asks.
  bool grow(int64_t& held, int64_t tokens)
  {
    const int64_t need = blocks_for(tokens) - held;
    if (need <= 0)
      return true;
    if (need > free_)
      return false;
    free_ -= need;
    held += need;
    return true;
  }
  void release(int64_t& held)  // all of them
  {
    free_ += held;
    held = 0;
  }
  // Whether `need` more blocks leave the watermark free, as a prompt's admission must.
  bool admits(int64_t need) const { return need <= free_ - config_.watermark; }

  // Prefix caching (nothing without it): the leading blocks of `ids` held, in blocks of
  // hash_block_tokens tokens; a freed prompt's blocks kept (its head evicted last); the cache cut to what the free
  // blocks hold; the cache alone forgotten; and everything freed and forgotten (a failure).
  int64_t cached_blocks(const std::vector<uint64_t>& ids) const;
  int64_t hash_block_tokens() const { return config_.hash_block_tokens; }
  void remember(const std::vector<uint64_t>& ids);
  void trim();
  void forget();
  void reset();

 private:
  KvBlocksConfig config_;
  int block_shift_;  // log2(block_size) where it is a power of two, -1 otherwise
  int64_t free_;
  std::unique_ptr<LruBlockCache> cache_;
};

}  // namespace llsim
