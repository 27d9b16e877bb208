#include "sim/ingest/dir_cache.hpp"

namespace llsim {

bool DirCache::holds(uint64_t dir, double now)
{
  const auto it = index_.find(dir);
  if (it == index_.end())
    return false;
  if (now - it->second->resolved_s > ttl_s_) {
    lru_.erase(it->second);
    index_.erase(it);
    return false;
  }
  lru_.splice(lru_.begin(), lru_, it->second);
  return true;
}

void DirCache::insert(uint64_t dir, double now)
{
  if (entries_ == 0)
    return;
  const auto it = index_.find(dir);
  if (it != index_.end()) {
    it->second->resolved_s = now;
    lru_.splice(lru_.begin(), lru_, it->second);
    return;
  }
  if (lru_.size() == entries_) {
    index_.erase(lru_.back().dir);
    lru_.pop_back();
  }
  lru_.push_front({dir, now});
  index_.emplace(lru_.front().dir, lru_.begin());
}

}  // namespace llsim
