// A sequence on a serving instance: what it arrives with, its state while the instance holds it
// (plain data the batcher keeps), and the listener that hears its tokens.
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
};

class BatchListener {
 public:
  virtual ~BatchListener()                   = default;
  virtual void token(int64_t id, bool first) = 0;
  // `tokens` more tokens out, one at the end of each of the steady decode iterations just
  // applied together (Batcher::advance_steady; the instance knows when they ended).
  virtual void decoded(int64_t id, int64_t tokens)    = 0;
  virtual void finished(int64_t id)                   = 0;  // its last token is out
  virtual void handed_off(int64_t id)                 = 0;  // PrefillOnly: prompt done
  virtual void prefix_hit(int64_t id, int64_t blocks) = 0;  // prefix blocks found cached
};

}  // namespace llsim
