// Eviction policy `length_aware`: blocks deep in long prefixes go first, the least recently used
// among equal depths (blocks being read are not evicted). The first blocks of prompts are shared
// by many requests (system prompts, earlier turns of a conversation) while a block far down a
// long prompt serves one conversation, so keeping shallow blocks keeps more hits per byte. The
// policy is llsim's reading of the serve issue's definition; no published system is claimed.
// No keys.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/memory_pool.yaml --set 'services.kv.eviction={impl: length_aware}'
#include "sim/core/registry.hpp"
#include "sim/svc/ranked_eviction.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class LengthAware : public RankedEviction {
 public:
  LengthAware(const Params&, const Context&) {}
  void inserted(const std::string& key, int64_t depth) override { place(key, -depth); }
  void used(const std::string& key) override
  {
    if (holds(key))
      place(key, rank_of(key, 0));  // same depth, most recent use
  }
};

}  // namespace

LLSIM_REGISTER(EvictionPolicy, "length_aware", LengthAware,
               "deepest prefix blocks first, least recently used among equal depths", kNoParams);

}  // namespace llsim
