// Runs of identical decode iterations on one instance: every running sequence is decoding and
// none waits, so each iteration is the same decodes with one more token of context each, until
// a sequence ends, one arrives or the free KV blocks run out. The batcher (batcher.hpp) asks
// these how many lie ahead, the work and KV use of each, and applies all but the last of a run in
// one pass over its sequences instead of one pass per iteration.
#pragma once
#include "sim/serve/cost/iteration_model.hpp"
#include "sim/serve/engine/sequence.hpp"
#include "sim/serve/kv/kv_blocks.hpp"

#include <cstdint>
#include <vector>

namespace llsim {

// Identical decode iterations an instance takes in one wait at most (bounds the end times kept).
inline constexpr int64_t kMaxSteadySteps = 4096;

// Iterations from now on that are the same decodes, at most `at_most` (0: the next one is not
// one): every sequence is past its prompt, none ends before the last of them, and the blocks
// they need are free.
int64_t steady_decode_steps(const std::vector<Sequence*>& running, const KvBlocks& kv, int64_t at_most);
// The work of the `ahead`-th of them (0: the next).
BatchWork steady_decode_work(const std::vector<Sequence*>& running, int64_t ahead);
// The share of the KV blocks in use during the `ahead`-th of them (its blocks taken).
double steady_kv_used_share(const std::vector<Sequence*>& running, const KvBlocks& kv, int64_t ahead);
// Applies `steps` of them, the first of which is the batcher's iteration `iteration`, none a
// sequence's last token (steps < steady_decode_steps): each sequence `steps` tokens on, its
// blocks grown (add_untold_tokens: the listener hears of them when the sequence's run breaks).
void advance_steady(const std::vector<Sequence*>& running, KvBlocks& kv, int64_t iteration, int64_t steps,
                    BatchListener& listener);

// The end times of `steps` such iterations from `start`, the first's work `first`, into `ends`.
void steady_step_ends(const IterationModel& model, BatchWork first, int64_t steps, double start,
                      std::vector<double>& ends);
// How many of the iterations ending at `ends` are applied when the instance's wait for them
// ends at `now`: after a submission, those that ended and the one under way; otherwise those that
// ended by now. Those ending after `fail_at` are not, and `failed` tells whether the failure cut the run.
struct SteadyStepsDone {
  int64_t done = 0;
  bool failed  = false;
};
SteadyStepsDone steady_steps_done(const std::vector<double>& ends, double now, bool submitted, double fail_at);

}  // namespace llsim
