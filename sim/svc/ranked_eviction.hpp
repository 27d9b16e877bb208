// An eviction policy that keeps its blocks ordered by a rank, the least recently used first
// among equal ranks, and evicts the lowest evictable one (lfu and length_aware are ranks).
#pragma once
#include "sim/svc/eviction_policy.hpp"

#include <cstdint>
#include <set>
#include <tuple>
#include <unordered_map>

namespace llsim {

class RankedEviction : public EvictionPolicy {
 public:
  void removed(const std::string& key) override
  {
    const auto it = entries_.find(key);
    if (it == entries_.end())
      return;
    order_.erase(it->second);
    entries_.erase(it);
  }
  std::string victim(const std::function<bool(const std::string&)>& evictable) const override
  {
    for (const auto& entry : order_)
      if (evictable(std::get<2>(entry)))
        return std::get<2>(entry);
    return "";
  }

 protected:
  // The block's rank, or `absent` when it is not held.
  int64_t rank_of(const std::string& key, int64_t absent) const
  {
    const auto it = entries_.find(key);
    return it == entries_.end() ? absent : std::get<0>(it->second);
  }
  bool holds(const std::string& key) const { return entries_.count(key) != 0; }
  // (Re)places the block at `rank`, as its most recent use.
  void place(const std::string& key, int64_t rank)
  {
    removed(key);
    const Entry e{rank, ++clock_, key};
    order_.insert(e);
    entries_.emplace(key, e);
  }

 private:
  using Entry = std::tuple<int64_t, uint64_t, std::string>;  // rank, last use, key
  std::set<Entry> order_;                                    // lowest rank, then oldest use, first
  std::unordered_map<std::string, Entry> entries_;
  uint64_t clock_ = 0;
};

}  // namespace llsim
