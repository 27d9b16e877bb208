// Contract of a memory pool's eviction policy (registry "eviction_policy", chosen with `impl:`
// under a memory_pool service's `eviction:`): which block of a full server goes to make room.
// One instance per server; pure logic.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace llsim {

class EvictionPolicy {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "eviction_policy";
  static constexpr const char* kHeader        = "sim/svc/eviction_policy.hpp";
  static constexpr const char* kSelector      = "impl";

  virtual ~EvictionPolicy() = default;
  // `depth`: the block's position in its prefix (0: the first block of a prompt), for policies
  // that prefer to keep the blocks many prompts share.
  virtual void inserted(const std::string& key, int64_t depth) = 0;
  virtual void used(const std::string& key)                    = 0;  // read (a hit) or put again
  virtual void removed(const std::string& key)                 = 0;
  // The block to evict next among those `evictable` accepts; "" when there is none.
  virtual std::string victim(const std::function<bool(const std::string&)>& evictable) const = 0;
};

}  // namespace llsim
