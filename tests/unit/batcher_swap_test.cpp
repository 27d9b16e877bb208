// Preemption by swap and vLLM V0's padded token budget.
#include "sim/serve/engine/batcher.hpp"
#include "tests/unit/batcher_fixture.hpp"

#include <catch2/catch.hpp>
#include <map>

using namespace llsim;
using namespace llsim::testing;

namespace {

BatcherConfig swapping(int64_t blocks, int64_t swap_blocks)
{
  BatcherConfig c = config(blocks);
  c.swap_blocks   = swap_blocks;
  c.swap_block_s  = 0.5;
  c.block_B       = 1000;
  return c;
}

// Runs iterations until idle; returns the blocks the iterations swapped and the prefill tokens
// they computed. Each sequence's blocks come back as many as went out (`balance`: out - in).
std::pair<int64_t, int64_t> drain_counting(Batcher& b, Log& log, std::map<int64_t, int64_t>& balance)
{
  int64_t swapped = 0, prefilled = 0;
  for (int n = 0; !b.idle() && n < 10000; ++n) {
    const BatchWork w = b.plan();
    REQUIRE_FALSE(w.empty());
    swapped += w.swapped_blocks;
    prefilled += w.prefill_tokens;
    for (const SwapMove& m : b.swap_moves())
      balance[m.id] += m.out ? m.blocks : -m.blocks;
    CHECK(b.swap_seconds(w.swapped_blocks) == 0.5 * static_cast<double>(w.swapped_blocks));
    b.complete(log);
  }
  return {swapped, prefilled};
}

std::pair<int64_t, int64_t> drain_counting(Batcher& b, Log& log)
{
  std::map<int64_t, int64_t> balance;
  return drain_counting(b, log, balance);
}

}  // namespace

TEST_CASE("batcher: a sequence preempted by swap keeps its KV and is not prefilled again", "[batcher][swap]")
{
  // 64 tokens of KV: two sequences of 16 + 20 tokens cannot both grow to their end.
  Batcher recompute(config(4), InstanceRole::Colocated);
  Batcher swap(swapping(4, 100), InstanceRole::Colocated);
  Log log_recompute, log_swap;
  for (Batcher* b : {&recompute, &swap}) {
    b->add({1, 16, 20});
    b->add({2, 16, 20});
  }
  const auto [none, prefilled_again] = drain_counting(recompute, log_recompute);
  std::map<int64_t, int64_t> balance;
  const auto [swapped, prefilled] = drain_counting(swap, log_swap, balance);
  CHECK(none == 0);
  CHECK(recompute.preemptions() >= 1);
  CHECK(prefilled_again > 32);  // the victim's prompt and output so far, again
  CHECK(swap.preemptions() >= 1);
  CHECK(prefilled == 32);  // the two prompts, once
  // Out and back in: an even count of moves, each of the victim's blocks at the time.
  CHECK(swapped > 0);
  CHECK(swapped % 2 == 0);
  for (const auto& [id, blocks] : balance)
    CHECK(blocks == 0);  // request `id`'s blocks all came back
  for (const Log* log : {&log_recompute, &log_swap}) {
    CHECK(log->tokens.at(1) == 20);
    CHECK(log->tokens.at(2) == 20);
  }
  CHECK(swap.used_blocks() == 0);
}

TEST_CASE("batcher: without room in the swap space a preempted sequence is recomputed", "[batcher][swap]")
{
  Batcher b(swapping(4, 1), InstanceRole::Colocated);  // one block of swap: the victim needs 2 or more
  Log log;
  b.add({1, 16, 20});
  b.add({2, 16, 20});
  const auto [swapped, prefilled] = drain_counting(b, log);
  CHECK(b.preemptions() >= 1);
  CHECK(swapped == 0);
  CHECK(prefilled > 32);
}

// A swap space that rejects the KV going out, or no longer has it when it should come back.
TEST_CASE("batcher: a sequence whose swapped KV does not arrive is recomputed", "[batcher][swap]")
{
  for (const bool lose_out : {true, false}) {
    Batcher b(swapping(4, 100), InstanceRole::Colocated);
    Log log;
    b.add({1, 16, 20});
    b.add({2, 16, 20});
    bool failed       = false;
    int64_t prefilled = 0;
    for (int n = 0; !b.idle() && n < 1000; ++n) {
      BatchWork w = b.plan();
      for (const SwapMove& m : b.swap_moves())
        if (!failed && m.out == lose_out) {
          const BatchWork before = w;
          const int64_t context  = 16 + b.tokens_out(m.id) - 1;  // its KV: prompt and output so far but the last
          b.swap_failed(m.id, w);
          // One coming back leaves the batch, with the context its decode would have read.
          CHECK(w.decodes == before.decodes - (lose_out ? 0 : 1));
          CHECK(w.decode_context == before.decode_context - (lose_out ? 0.0 : static_cast<double>(context + 1)));
          failed = true;
        }
      prefilled += w.prefill_tokens;
      if (w.empty())
        CHECK(b.waiting() > 0);
      b.complete(log);
    }
    CHECK(failed);
    CHECK(prefilled > 32);  // the victim's prompt and output so far, again
    CHECK(log.tokens.at(1) == 20);
    CHECK(log.tokens.at(2) == 20);
    CHECK(b.used_blocks() == 0);
    CHECK(b.idle());
  }
}

TEST_CASE("batcher: no new prompt is admitted while a sequence waits swapped out", "[batcher][swap]")
{
  Batcher b(swapping(4, 100), InstanceRole::Colocated);
  Log log;
  b.add({1, 16, 20});
  b.add({2, 16, 20});
  bool added = false, waited = false;
  for (int n = 0; !b.idle() && n < 1000; ++n) {
    const BatchWork w = b.plan();
    CHECK((w.prefills == 0 || b.swapped() == 0));
    waited = waited || (added && b.swapped() > 0);
    b.complete(log);
    if (!added && b.swapped() > 0) {  // 2 just went out: 3 arrives
      b.add({3, 16, 2});
      added = true;
    }
  }
  CHECK(waited);
  CHECK(log.tokens.at(3) == 2);
}

TEST_CASE("batcher: a padded budget counts a whole-prompt batch as prompts x the longest", "[batcher]")
{
  BatcherConfig c    = config(100);
  c.scheduler        = batch_scheduler("v0");
  c.max_batch_tokens = 64;
  for (bool padded : {false, true}) {
    c.padded_budget = padded;
    Batcher b(c, InstanceRole::Colocated);
    b.add({1, 10, 1});
    b.add({2, 40, 1});
    const BatchWork w = b.plan();
    // 10 + 40 = 50 tokens fit the budget of 64; padded, 2 x 40 = 80 do not.
    CHECK(w.prefills == (padded ? 1 : 2));
    Log log;
    b.complete(log);
  }
}
