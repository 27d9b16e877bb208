// The ideal prefix hit ratio of a request trace for a cache of N blocks (llsim trace stats):
// - requests are taken in arrival order, ties in file order;
// - a request's hit blocks are the longest prefix of its hash_ids held by the cache before it is
//   served;
// - then each of its blocks, in order, is touched (made most recently used) or inserted, the
//   least recently used block being evicted whenever the cache holds more than N;
// - hit ratio = sum of hit blocks / sum of the requests' block counts.
// N = kUnboundedBlocks never evicts.
#pragma once
#include "sim/core/hash_index.hpp"
#include "sim/serve/workload/request_trace.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <list>
#include <vector>

namespace llsim {

inline constexpr size_t kUnboundedBlocks = std::numeric_limits<size_t>::max();

class LruBlockCache {
 public:
  explicit LruBlockCache(size_t capacity)
      : capacity_(capacity)
  {}
  // Blocks of `ids`, from the first, that the cache holds before any is touched.
  size_t cached_prefix(const std::vector<uint64_t>& ids);
  // Touches or inserts each block in order, evicting beyond the capacity.
  void use(const std::vector<uint64_t>& ids);
  // Evicts the least recently used blocks beyond the new capacity.
  void set_capacity(size_t capacity);

 private:
  size_t capacity_;
  std::list<uint64_t> order_;  // most recently used first
  HashIndex<std::list<uint64_t>::iterator> where_;
};

// NaN when the trace has no prefix blocks (formats without hash_ids).
double ideal_prefix_hit_ratio(const std::vector<TraceRequest>& requests, size_t capacity_blocks);

}  // namespace llsim
