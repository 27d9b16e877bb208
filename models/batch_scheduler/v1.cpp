// Batch scheduler `v1`: vLLM V1's, with chunked prefill (Agrawal et al., "Taming throughput-
// latency tradeoff in LLM inference with Sarathi-Serve", OSDI'24). Each iteration decodes every
// running sequence first, brings swapped sequences back unless a decode was just preempted, then
// spends the token budget left on prompt chunks of at most `prefill_chunk` tokens: prompts
// already under way, then waiting ones admitted in arrival order.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_even_poisson.yaml --set phases.chat.batching.scheduler=v1
#include "sim/core/registry.hpp"
#include "sim/serve/engine/batch_scheduler.hpp"

namespace llsim {

namespace {

const ParamTable kV1Params = {};

class V1 : public BatchScheduler {
 public:
  V1(const Params&, const Context&) {}

  void plan(BatchSteps& steps, BatchWork& w) const override
  {
    steps.admit_decode_ready();
    steps.schedule_decodes(w);
    if (!steps.preempted_now())
      steps.swap_in(w);
    steps.schedule_chunks(w);
  }
  bool chunks_prompts() const override { return true; }
};

}  // namespace

LLSIM_REGISTER(BatchScheduler, "v1", V1, "vLLM V1: chunked prefill beside the decodes", kV1Params);

}  // namespace llsim
