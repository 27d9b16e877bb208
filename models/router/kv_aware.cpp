// Router `kv_aware`: the candidate with the smallest estimated time to the request's first
// token, as KV-aware routers weigh cached prefixes against load: the system's estimate counts
// the prefill queued at the instance and the request's tokens its prefix cache does not hold
// (ties: the fewest sequences, then the lowest index). Needs the instances' prefix caches.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_even_poisson.yaml --set 'phases.chat.system={impl: vllm, instances: gpu, router: kv_aware, prefix_caching: true}'
#include "sim/core/registry.hpp"
#include "sim/serve/engine/router.hpp"

namespace llsim {

namespace {

const ParamTable kKvAwareParams = {};

class KvAware : public Router {
 public:
  KvAware(const Params&, const Context&) {}

  int64_t route(const RouteView& view) override { return fastest_first_token(view, true); }
  bool reads_prefix_caches() const override { return true; }
};

}  // namespace

LLSIM_REGISTER(Router, "kv_aware", KvAware, "the smallest estimated time to first token, ties to the least loaded",
               kKvAwareParams);

}  // namespace llsim
