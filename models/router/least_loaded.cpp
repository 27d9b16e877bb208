// Router `least_loaded`: the candidate with the fewest sequences running, queued or on their
// way (ties: the lowest index), as routers that count requests do.
//
// Where nothing queues for a batch slot or KV memory, it delays first tokens more than round
// robin: it balances the count of sequences, which long decodes dominate, so an instance whose
// decodes have just ended is short by several and takes the next arrivals back to back; their
// prompts share its next iterations and wait for each other. On an even Poisson load of eight
// Llama-2-7B instances (tests/inputs/serve_even_poisson.yaml) its p99 TTFT is about 0.15 s
// against round robin's 0.056 s. Where requests do queue, counting them is what keeps an
// instance's queue from growing: with 8 batch slots, output lengths drawn from an exponential of
// mean 128 and 33 requests/s, its p99 TTFT is about 0.7 s against round robin's 1.6 s
// (tests/llsim/test_routing.py pins both orders).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_even_poisson.yaml --set phases.chat.system.router=least_loaded
#include "sim/core/registry.hpp"
#include "sim/serve/engine/router.hpp"

namespace llsim {

namespace {

const ParamTable kLeastLoadedParams = {};

class LeastLoaded : public Router {
 public:
  LeastLoaded(const Params&, const Context&) {}

  int64_t route(const RouteView& view) override { return view.fewest_sequences(); }
};

}  // namespace

LLSIM_REGISTER(Router, "least_loaded", LeastLoaded, "the instance with the fewest sequences", kLeastLoadedParams);

}  // namespace llsim
