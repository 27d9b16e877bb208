// Eviction policy `lfu`: the block used least often goes first, the least recently used among
// equals (blocks being read are not evicted). A use is a hit or a put of a block held. No keys.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/memory_pool.yaml --set 'services.kv.eviction={impl: lfu}'
#include "sim/core/registry.hpp"
#include "sim/svc/ranked_eviction.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class Lfu : public RankedEviction {
 public:
  Lfu(const Params&, const Context&) {}
  void inserted(const std::string& key, int64_t) override { place(key, 1); }
  void used(const std::string& key) override
  {
    if (holds(key))
      place(key, rank_of(key, 0) + 1);
  }
};

}  // namespace

LLSIM_REGISTER(EvictionPolicy, "lfu", Lfu, "least frequently used first, least recently used among equals", kNoParams);

}  // namespace llsim
