// Eviction policy `none`: nothing is evicted; a put into a full server is rejected. No keys.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/memory_pool.yaml --set 'services.kv.eviction={impl: none}'
#include "sim/core/registry.hpp"
#include "sim/svc/eviction_policy.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class NoEviction : public EvictionPolicy {
 public:
  NoEviction(const Params&, const Context&) {}
  void inserted(const std::string&, int64_t) override {}
  void used(const std::string&) override {}
  void removed(const std::string&) override {}
  std::string victim(const std::function<bool(const std::string&)>&) const override { return ""; }
};

}  // namespace

LLSIM_REGISTER(EvictionPolicy, "none", NoEviction, "never evict: puts into a full server are rejected", kNoParams);

}  // namespace llsim
