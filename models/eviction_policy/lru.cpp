// Eviction policy `lru`: the least recently used block goes first (blocks being read are not
// evicted). No keys. Source: Mooncake (FAST'25) evicts its KVCache pool by LRU.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/memory_pool.yaml --set 'services.kv.eviction={impl: lru}'
#include "sim/core/registry.hpp"
#include "sim/svc/eviction_policy.hpp"

#include <list>
#include <unordered_map>

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class Lru : public EvictionPolicy {
 public:
  Lru(const Params&, const Context&) {}
  void inserted(const std::string& key, int64_t) override
  {
    order_.push_front(key);
    where_[key] = order_.begin();
  }
  void used(const std::string& key) override
  {
    const auto it = where_.find(key);
    if (it != where_.end())
      order_.splice(order_.begin(), order_, it->second);
  }
  void removed(const std::string& key) override
  {
    const auto it = where_.find(key);
    if (it == where_.end())
      return;
    order_.erase(it->second);
    where_.erase(it);
  }
  std::string victim(const std::function<bool(const std::string&)>& evictable) const override
  {
    for (auto it = order_.rbegin(); it != order_.rend(); ++it)
      if (evictable(*it))
        return *it;
    return "";
  }

 private:
  std::list<std::string> order_;  // most recent first
  std::unordered_map<std::string, std::list<std::string>::iterator> where_;
};

}  // namespace

LLSIM_REGISTER(EvictionPolicy, "lru", Lru, "least recently used first", kNoParams);

}  // namespace llsim
