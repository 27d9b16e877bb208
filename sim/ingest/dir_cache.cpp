#include "sim/ingest/dir_cache.hpp"

namespace llsim {

bool DirCache::holds(uint64_t dir, double now)
{
  auto* it = index_.find(dir);
  if (!it)
    return false;
  if (now - (*it)->resolved_s > ttl_s_) {
    lru_.erase(*it);
    index_.erase(dir);
    return false;
  }
  if (*it != lru_.begin())
    lru_.splice(lru_.begin(), lru_, *it);
  return true;
}

void DirCache::insert(uint64_t dir, double now)
{
  if (entries_ == 0)
    return;
  if (auto* it = index_.find(dir)) {
    (*it)->resolved_s = now;
    lru_.splice(lru_.begin(), lru_, *it);
    return;
  }
  if (lru_.size() == entries_) {
    index_.erase(lru_.back().dir);
    lru_.pop_back();
  }
  lru_.push_front({dir, now});
  index_[dir] = lru_.begin();
}

}  // namespace llsim
