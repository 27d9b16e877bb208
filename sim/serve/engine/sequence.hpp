// A sequence on a serving instance: what it arrives with, its state while the instance holds it
// (plain data the batcher keeps), and the listener that hears its tokens.
//
// A sequence's tokens after its first are told to the listener in runs, not one by one: a run of
// tokens out at the ends of consecutive iterations of its batcher is told when it breaks (the
// sequence skipped an iteration, or ends, or is aborted or dropped). The listener maps iteration
// numbers to times (token_timeline.hpp); a request's tally is touched once per run, not per token.
#pragma once
#include <cstdint>
#include <vector>

namespace llsim {

struct SeqArrival {
  int64_t id                            = 0;
  int64_t input_tokens                  = 0;
  int64_t output_tokens                 = 1;
  int64_t cached_tokens                 = 0;        // prompt tokens whose KV is already there (loaded or received)
  int64_t generated                     = 0;        // tokens already out (1 for a sequence handed to a decode instance)
  const std::vector<uint64_t>* hash_ids = nullptr;  // prefix blocks, for prefix caching
};

struct Sequence {
  SeqArrival a;
  int64_t prompt           = 0;      // tokens to prefill (input, plus output so far after a recompute)
  int64_t computed         = 0;      // tokens whose KV is held
  int64_t blocks           = 0;      // KV blocks held
  int64_t step             = 0;      // tokens this iteration computes
  int64_t hit_blocks       = 0;      // prefix blocks found in the cache when admitted
  int64_t hit_tokens       = 0;      // the prompt tokens they spare
  int64_t first_hit_blocks = -1;     // hit_blocks at its first admission (-1: not admitted yet)
  int64_t recompute_upto   = 0;      // tokens computed before a preemption by recompute: computed again
  bool ended               = false;  // finished or handed off by the iteration just completed
  int64_t unreported_from  = 0;      // the iteration whose end gave the first token not yet told
  int64_t unreported       = 0;      // tokens out, one per iteration from there, not yet told
};

class BatchListener {
 public:
  virtual ~BatchListener()             = default;
  virtual void first_token(int64_t id) = 0;  // out at the end of the iteration just completed
  // `tokens` more tokens out, none the first, at the ends of the batcher's iterations `from`,
  // from + 1, ... (Batcher::iterations counts them from 0).
  virtual void decoded(int64_t id, int64_t from, int64_t tokens) = 0;
  virtual void finished(int64_t id)                              = 0;  // its last token is out
  virtual void handed_off(int64_t id)                            = 0;  // PrefillOnly: prompt done
  virtual void prefix_hit(int64_t id, int64_t blocks)            = 0;  // prefix blocks found cached
};

// Tells the listener the tokens of `s` not yet told.
inline void tell_untold_tokens(Sequence& s, BatchListener& listener)
{
  if (s.unreported > 0)
    listener.decoded(s.a.id, s.unreported_from, s.unreported);
  s.unreported = 0;
}

// `n` tokens of `s`, none its first, out at the ends of iterations `iteration` to iteration + n - 1:
// they join its run not yet told when they follow it, and start a new one otherwise.
inline void add_untold_tokens(Sequence& s, int64_t iteration, int64_t n, BatchListener& listener)
{
  if (s.unreported > 0 && s.unreported_from + s.unreported != iteration)
    tell_untold_tokens(s, listener);
  if (s.unreported == 0)
    s.unreported_from = iteration;
  s.unreported += n;
}

}  // namespace llsim
