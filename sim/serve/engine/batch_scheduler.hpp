// Contract of a batch scheduler (registry "batch_scheduler", named by `batching.scheduler`): how
// an instance's batcher composes the next iteration from the steps it offers (BatchSteps): the
// sequences whose prompt KV arrived join the decodes, waiting prompts are prefilled whole or in
// chunks beside the decodes, the running sequences decode (preempting the latest arrivals when
// the KV is full), and sequences swapped out come back. A scheduler decides which steps run, in
// what order; the batcher keeps the sequences, their KV blocks and the budgets. Plain logic.
#pragma once
#include "sim/serve/cost/iteration_model.hpp"

namespace llsim {

class BatchSteps {
 public:
  virtual ~BatchSteps() = default;
  // Sequences whose prompt KV is here already (handed to a decode instance) join the decodes.
  virtual void admit_decode_ready() = 0;
  // Waiting prompts prefilled whole, in arrival order, up to max_batch_tokens.
  virtual void prefill_whole_prompts(BatchWork& w) = 0;
  // Every running decode, one token each, preempting the latest arrival while the KV is full.
  virtual void schedule_decodes(BatchWork& w) = 0;
  virtual bool preempted_now() const          = 0;  // by schedule_decodes in this iteration
  // Sequences swapped out come back, earliest first, while their blocks are free.
  virtual void swap_in(BatchWork& w) = 0;
  // The token budget left goes to prompt chunks: running prompts, then waiting ones admitted.
  virtual void schedule_chunks(BatchWork& w) = 0;
};

class BatchScheduler {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "batch_scheduler";
  static constexpr const char* kHeader        = "sim/serve/engine/batch_scheduler.hpp";
  static constexpr const char* kSelector      = "scheduler";

  virtual ~BatchScheduler() = default;
  // Fills `w` with the next iteration's work.
  virtual void plan(BatchSteps& steps, BatchWork& w) const = 0;
  // Whether prompts are prefilled in chunks beside the decodes (prefill_chunk applies), rather
  // than whole in iterations of their own (padded_budget applies).
  virtual bool chunks_prompts() const = 0;
};

}  // namespace llsim
