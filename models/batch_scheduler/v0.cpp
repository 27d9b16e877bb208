// Batch scheduler `v0`: vLLM V0's before chunked prefill. Waiting prompts are prefilled whole,
// in iterations of their own, up to max_batch_tokens (a longer prompt runs alone; with
// padded_budget a batch's tokens count as its prompts times its longest, as V0 counted them);
// the running sequences decode only in iterations where no prompt can be admitted, and then
// swapped sequences come back unless a decode was just preempted.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_single.yaml
#include "sim/core/registry.hpp"
#include "sim/serve/engine/batch_scheduler.hpp"

namespace llsim {

namespace {

const ParamTable kV0Params = {};

class V0 : public BatchScheduler {
 public:
  V0(const Params&, const Context&) {}

  void plan(BatchSteps& steps, BatchWork& w) const override
  {
    steps.admit_decode_ready();
    steps.prefill_whole_prompts(w);
    if (!w.empty())
      return;
    steps.schedule_decodes(w);
    if (!steps.preempted_now())
      steps.swap_in(w);
  }
  bool chunks_prompts() const override { return false; }
};

}  // namespace

LLSIM_REGISTER(BatchScheduler, "v0", V0, "vLLM V0: whole prompts in iterations of their own", kV0Params);

}  // namespace llsim
