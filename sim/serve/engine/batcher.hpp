// Continuous batching at iteration level on one serving instance (Orca, vLLM), as plain logic:
// the instance asks for the next iteration's batch (plan), runs it for the time the iteration
// model gives, then applies it (complete), which puts out each request's tokens (the first at
// once, the later ones in runs: sequence.hpp).
//
// - KV lives in `kv_blocks` paged blocks of `block_size` tokens (kv_blocks.hpp). A sequence
//   holds ceil(context tokens / block_size) blocks, allocated as its context grows.
// - The batch scheduler (batch_scheduler.hpp, models/batch_scheduler/) composes each iteration
//   from the batcher's steps:
//   * decodes: every running sequence, one token each; when a decode needs a block and none is
//     free, the running sequence that arrived last is preempted by recompute (its blocks freed,
//     back to the front of the queue, to prefill its prompt and its output so far again), or,
//     with swap space (vLLM V0's preemption by swap, swap_space.hpp), swapped out: its KV blocks
//     move to CPU memory (or a swap pool: the instance moves them, swap_moves()) and come back,
//     before any new prompt is admitted, when its blocks are free again (a sequence still
//     prefilling, or one whose blocks the swap space cannot hold, is recomputed); nothing new
//     is admitted in that iteration;
//   * chunks: the token budget left (max_batch_tokens - decodes) goes to prefills in chunks of
//     at most prefill_chunk tokens: sequences already prefilling, then waiting ones in arrival
//     order while the batch has fewer than max_batch_size sequences and the blocks of their
//     whole prompt are free (taken on admission, as vLLM does; chunks split only the compute);
//   * whole prompts: waiting prompts prefilled whole in an iteration of their own; with
//     padded_budget, as vLLM V0 counted them, such a batch's tokens are its prompts' count
//     times its longest prompt.
// - The iteration that completes a prompt emits a token (the first one, or the next after a
//   recompute); each decode emits one. A sequence ends with its last output token.
// - PrefillOnly instances (disaggregated prefill) hand a sequence off once its first token is
//   out and free its blocks; DecodeOnly instances receive sequences whose prompt KV has arrived.
// - Optional prefix caching within the instance (vLLM's automatic prefix caching): the blocks of
//   finished prompts stay cached in the free blocks, least recently used reclaimed first; a
//   new sequence skips the prefill of its longest cached prefix. A hit is copied, not shared:
//   the sequence still allocates all its blocks (a simplification on the safe side).
#pragma once
#include "sim/serve/cost/iteration_model.hpp"
#include "sim/serve/engine/batch_scheduler.hpp"
#include "sim/serve/engine/sequence.hpp"
#include "sim/serve/engine/steady_decodes.hpp"
#include "sim/serve/kv/kv_blocks.hpp"
#include "sim/serve/kv/swap_space.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace llsim {

struct BatcherConfig {
  int64_t kv_blocks         = 0;
  int64_t block_size        = 16;
  int64_t max_batch_tokens  = 8192;
  int64_t max_batch_size    = 256;
  int64_t prefill_chunk     = 512;  // prompt tokens of one sequence per iteration (a chunking scheduler)
  bool prefix_caching       = false;
  int64_t hash_block_tokens = 512;  // tokens per prefix hash id (the Mooncake trace's block)
  // vLLM V0's admission watermark: a prompt is let in only if it leaves this many blocks free.
  int64_t watermark_blocks = 0;
  int64_t max_model_len    = 0;                     // prompt + output tokens at most; 0: no cap
  bool padded_budget       = false;                 // whole-prompt batches count as prompts x longest prompt
  int64_t swap_blocks      = 0;                     // KV blocks the CPU swap space holds; 0: preemption by recompute
  double swap_block_s      = 0;                     // seconds to move one KV block between HBM and CPU memory
  double block_B           = 0;                     // bytes of one KV block over the instance's GPUs
  std::shared_ptr<const BatchScheduler> scheduler;  // required
};

enum class InstanceRole { Colocated, PrefillOnly, DecodeOnly };

class Batcher : private BatchSteps {
 public:
  Batcher(const BatcherConfig& config, InstanceRole role);

  // Whether a sequence of `prompt` tokens growing to `total` (prompt + output) can ever fit
  // alone: its prompt within the watermark (as vLLM V0 admits), all of it in the blocks, and
  // under max_model_len.
  bool fits(int64_t prompt, int64_t total) const;
  void add(const SeqArrival& s);
  bool idle() const { return running_.empty() && waiting_.empty() && swap_.empty(); }
  // Leading blocks of `ids` in the prefix cache (0 without one).
  int64_t cached_blocks(const std::vector<uint64_t>& ids) const { return kv_.cached_blocks(ids); }
  // The next iteration's work (empty only when idle). When running prompts fill the KV and
  // none can go on, the latest arrival is preempted. Must be followed by complete().
  BatchWork plan();
  void complete(BatchListener& listener);
  // Iterations completed so far, steady ones applied together included: the numbers tokens are
  // told by (sequence.hpp).
  int64_t iterations() const { return iterations_; }
  // The earliest iteration whose token some sequence has not told yet (iterations() when none).
  int64_t oldest_unreported() const;
  // After plan(): whether the sequences left waiting are kept out by KV memory (the next in line
  // needs more blocks than are free, sequences are swapped out, or this iteration preempted one)
  // rather than by a full batch (max_batch_size sequences, or no room in max_batch_tokens).
  bool held_by_memory() const;

  // Iterations from now on that will be the same decodes, one token more of context each, as
  // long as nothing is submitted: every running sequence is decoding, none waits, the blocks
  // they need are free, and none ends before the last of them (0 when that is not the case).
  // decode_work(j) is the work of the j-th of them (0: the next), kv_used_share_ahead(j) the
  // KV in use during it (steady_decodes.hpp).
  int64_t steady_decode_steps(int64_t at_most) const
  {
    return !running_.empty() && waiting_.empty() && swap_.empty() ? llsim::steady_decode_steps(running_, kv_, at_most)
                                                                  : 0;
  }
  BatchWork decode_work(int64_t ahead) const { return steady_decode_work(running_, ahead); }
  double kv_used_share_ahead(int64_t ahead) const { return steady_kv_used_share(running_, kv_, ahead); }
  // The first `steps` of those iterations at once, none a sequence's last (steps <
  // steady_decode_steps): each sequence `steps` tokens on.
  void advance_steady(int64_t steps, BatchListener& listener)
  {
    llsim::advance_steady(running_, kv_, iterations_, steps, listener);
    iterations_ += steps;
  }
  // One of those iterations: the running decodes only, nothing admitted (what was submitted
  // meanwhile joins the iteration after). Must be followed by complete().
  BatchWork plan_steady();

  int64_t running() const { return static_cast<int64_t>(running_.size()); }
  int64_t waiting() const { return static_cast<int64_t>(waiting_.size() + swap_.size()); }  // swapped included
  int64_t swapped() const { return static_cast<int64_t>(swap_.size()); }
  int64_t used_blocks() const { return kv_.used(); }
  int64_t free_blocks() const { return kv_.free(); }
  int64_t kv_blocks() const { return kv_.total(); }
  // The KV blocks `tokens` tokens of context hold.
  int64_t blocks_for(int64_t tokens) const { return kv_.blocks_for(tokens); }
  double kv_used_share() const { return kv_.used_share(); }
  // Calls f(context, tokens) for every prompt still to prefill, queued or running: its tokens
  // already computed and those left.
  void for_each_unfinished_prompt(const std::function<void(int64_t, int64_t)>& f) const;
  // The instance's host failed: every sequence (running, planned or waiting) and the prefix
  // cache are gone. Returns the ids of the sequences, in arrival order, their tokens told first.
  std::vector<int64_t> drop_all(BatchListener& listener);
  void forget_cache();  // the prefix cache alone (a failure while idle)
  // The sequences it holds (running, waiting or swapped out), in arrival order.
  std::vector<int64_t> sequence_ids() const;
  // Between iterations: sequences `ids` are gone (their clients gave up), wherever they were; their
  // blocks are freed, the prompt's computed ones left to the prefix cache, their tokens told first.
  void abort(const std::vector<int64_t>& ids, BatchListener& listener);
  double prefix_hit_tokens() const { return prefix_hit_tokens_; }  // skipped at admissions
  double preemptions() const { return preemptions_; }
  // Tokens whose KV a preemption by recompute dropped and that were computed again (the prefix
  // cache's hits left out).
  double recomputed_tokens() const { return recomputed_tokens_; }
  // The swaps of the iteration just planned, in the order they happened.
  const std::vector<SwapMove>& swap_moves() const { return swap_.moves(); }
  // Sequences whose KV is swapped out now, in arrival order.
  const std::vector<int64_t>& swapped_out() const { return swap_.ids(); }
  // The KV of a sequence that this iteration's plan swapped out or in did not make it (a swap
  // space that rejected or lost it): the sequence is recomputed instead, as if preempted by
  // recompute, and leaves `w` if it had joined it.
  void swap_failed(int64_t id, BatchWork& w);
  // The time of moving `blocks` swapped blocks over PCIe.
  double swap_seconds(int64_t blocks) const { return static_cast<double>(blocks) * config_.swap_block_s; }
  // The tokens sequence `id` has put out so far, told to the listener or not yet.
  int64_t tokens_out(int64_t id) const { return seqs_.at(id).a.generated; }
  // The blocks of a sequence swapped out now.
  int64_t swapped_blocks(int64_t id) const { return swap_.blocks_of(id); }
  double block_B() const { return config_.block_B; }

 private:
  bool grow(Sequence& s, int64_t tokens) { return kv_.grow(s.blocks, tokens); }  // blocks for `tokens` of context
  void admit(Sequence& s);
  void count_hits(Sequence& s);
  void preempt_last();
  // Its KV dropped (what was in HBM left to the prefix cache): back to the front of the queue.
  void recompute(int64_t id, Sequence& s, bool kv_in_hbm);
  // Its blocks freed; with kv_in_hbm, its prompt's whole computed blocks left to the prefix cache.
  void release_to_cache(Sequence& s, bool kv_in_hbm);
  bool swap_out(int64_t id, Sequence& s);
  int64_t cached_prefix(const Sequence& s);
  BatchWork plan_once();
  void apply_prefix_cache(Sequence& s);
  void take(Sequence& s, int64_t tokens, BatchWork& w);
  // The steps a batch scheduler composes an iteration of (batch_scheduler.hpp).
  void admit_decode_ready() override;
  void prefill_whole_prompts(BatchWork& w) override;
  void schedule_decodes(BatchWork& w) override;
  bool preempted_now() const override { return preempted_now_; }
  void swap_in(BatchWork& w) override;
  void schedule_chunks(BatchWork& w) override;

  BatcherConfig config_;
  InstanceRole role_;
  KvBlocks kv_;
  SwapSpace swap_;
  std::unordered_map<int64_t, Sequence> seqs_;  // by id; a Sequence stays where it is while it lives
  std::vector<Sequence*> running_;              // arrival (id) order
  std::deque<int64_t> waiting_;
  std::vector<Sequence*> batch_;  // this iteration's sequences
  double prefix_hit_tokens_ = 0, preemptions_ = 0, recomputed_tokens_ = 0;
  bool preempted_now_ = false;  // this iteration's decodes preempted a sequence
  int64_t iterations_ = 0;
};

}  // namespace llsim
