#include "sim/serve/kv/prefix_cache.hpp"

#include "sim/sg/log.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <numeric>

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_prefix_cache, llsim_serve, "evictions from an instance's prefix cache");

namespace llsim {

size_t LruBlockCache::cached_prefix(const std::vector<uint64_t>& ids)
{
  size_t n = 0;
  while (n < ids.size() && where_.find(ids[n]))
    ++n;
  return n;
}

void LruBlockCache::use(const std::vector<uint64_t>& ids)
{
  for (uint64_t id : ids) {
    if (auto* it = where_.find(id)) {
      order_.splice(order_.begin(), order_, *it);
      continue;
    }
    order_.push_front(id);
    where_[id] = order_.begin();
    if (order_.size() > capacity_) {
      XBT_DEBUG("prefix cache full (%zu blocks): evicts block %016" PRIx64, capacity_, order_.back());
      where_.erase(order_.back());
      order_.pop_back();
    }
  }
}

void LruBlockCache::set_capacity(size_t capacity)
{
  capacity_ = capacity;
  while (order_.size() > capacity_) {
    XBT_DEBUG("prefix cache shrinks to %zu blocks: evicts block %016" PRIx64, capacity_, order_.back());
    where_.erase(order_.back());
    order_.pop_back();
  }
}

double ideal_prefix_hit_ratio(const std::vector<TraceRequest>& requests, size_t capacity_blocks)
{
  std::vector<size_t> order(requests.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return requests[a].arrival_s < requests[b].arrival_s; });
  LruBlockCache cache(capacity_blocks);
  double hits = 0, blocks = 0;
  for (size_t i : order) {
    const auto& ids = requests[i].hash_ids;
    hits += static_cast<double>(cache.cached_prefix(ids));
    blocks += static_cast<double>(ids.size());
    cache.use(ids);
  }
  return blocks > 0 ? hits / blocks : NAN;
}

}  // namespace llsim
