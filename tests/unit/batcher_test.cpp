#include "sim/serve/engine/batcher.hpp"
#include "sim/serve/engine/token_timeline.hpp"
#include "tests/unit/batcher_fixture.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <vector>

using namespace llsim;
using namespace llsim::testing;

namespace {

// Prefix caching by 16-token blocks, whole 48-token prompts in one iteration.
BatcherConfig caching_config()
{
  BatcherConfig c     = config(100);
  c.prefix_caching    = true;
  c.hash_block_tokens = 16;
  c.max_batch_tokens  = 256;
  c.prefill_chunk     = 256;
  return c;
}

}  // namespace

TEST_CASE("batcher: a prompt is prefilled in chunks, then decodes one token per iteration", "[batcher]")
{
  Batcher b(config(100), InstanceRole::Colocated);
  b.add({1, 80, 5});
  Log log;
  BatchWork w = b.plan();
  CHECK(w.prefill_tokens == 32);
  CHECK(w.decodes == 0);
  b.complete(log);
  CHECK(log.tokens[1] == 0);
  CHECK(b.plan().prefill_tokens == 32);
  b.complete(log);
  w = b.plan();
  CHECK(w.prefill_tokens == 16);
  b.complete(log);
  CHECK(log.tokens[1] == 1);  // the iteration that ends the prompt gives the first token
  w = b.plan();
  CHECK(w.decodes == 1);
  CHECK(w.decode_context == 81);
  b.complete(log);
  CHECK(drain(b, log) == 3);
  CHECK(log.tokens[1] == 5);
  CHECK(log.finished_ids == std::vector<int64_t>{1});
  CHECK(b.used_blocks() == 0);
}

TEST_CASE("batcher: decodes come first and prefills share what is left of the token budget", "[batcher]")
{
  Batcher b(config(100), InstanceRole::Colocated);
  Log log;
  b.add({1, 10, 100});
  b.plan();
  b.complete(log);  // 1 is decoding now
  b.add({2, 200, 2});
  const BatchWork w = b.plan();
  CHECK(w.decodes == 1);
  CHECK(w.prefill_tokens == 32);  // one chunk; budget 63 left
  b.complete(log);
}

TEST_CASE("batcher: max_batch_size bounds the sequences admitted", "[batcher]")
{
  Batcher b(config(100), InstanceRole::Colocated);
  for (int64_t id = 0; id < 6; ++id)
    b.add({id, 4, 3});
  b.plan();
  CHECK(b.running() == 4);
  CHECK(b.waiting() == 2);
}

TEST_CASE("batcher: sequences left waiting are held by a full batch, or by KV memory", "[batcher]")
{
  Batcher slots(config(100), InstanceRole::Colocated);  // 4 sequences a batch, room for 100 blocks
  for (int64_t id = 0; id < 6; ++id)
    slots.add({id, 4, 3});
  slots.plan();
  CHECK(slots.waiting() == 2);
  CHECK_FALSE(slots.held_by_memory());

  Batcher memory(config(4), InstanceRole::Colocated);  // 64 tokens of KV: one 48-token prompt
  memory.add({1, 48, 3});
  memory.add({2, 48, 3});
  memory.plan();
  CHECK(memory.running() == 1);
  CHECK(memory.waiting() == 1);
  CHECK(memory.held_by_memory());

  Batcher tokens(config(100), InstanceRole::Colocated);  // the chunks use the 64-token budget
  tokens.add({1, 32, 3});
  tokens.add({2, 32, 3});
  tokens.add({3, 32, 3});
  tokens.plan();
  CHECK(tokens.waiting() == 1);
  CHECK_FALSE(tokens.held_by_memory());
}

TEST_CASE("batcher: when decodes run out of blocks the latest admitted sequence is preempted and recomputed",
          "[batcher]")
{
  Batcher b(config(4), InstanceRole::Colocated);  // 64 tokens of KV
  Log log;
  b.add({1, 16, 20});
  b.add({2, 16, 20});
  drain(b, log);
  CHECK(b.preemptions() >= 1);
  CHECK(log.tokens[1] == 20);
  CHECK(log.tokens[2] == 20);
  CHECK(b.used_blocks() == 0);
}

TEST_CASE("batcher: a sequence too large for the whole KV never fits", "[batcher]")
{
  Batcher b(config(4), InstanceRole::Colocated);
  CHECK(b.fits(64, 64));
  CHECK_FALSE(b.fits(65, 65));
}

TEST_CASE("batcher: a prefill instance hands a sequence off after its first token and frees its blocks", "[batcher]")
{
  Batcher b(config(100), InstanceRole::PrefillOnly);
  Log log;
  b.add({7, 20, 50});
  b.add({8, 20, 1});
  drain(b, log);
  CHECK(log.handed == std::vector<int64_t>{7});
  CHECK(log.finished_ids == std::vector<int64_t>{8});
  CHECK(b.used_blocks() == 0);
}

TEST_CASE("batcher: a decode instance starts from the received prompt KV", "[batcher]")
{
  Batcher b(config(100), InstanceRole::DecodeOnly);
  Log log;
  b.add({3, 40, 4, 40, 1});
  const BatchWork w = b.plan();
  CHECK(w.prefill_tokens == 0);
  CHECK(w.decodes == 1);
  CHECK(w.decode_context == 41);
  b.complete(log);
  CHECK(drain(b, log) == 2);
  CHECK(log.tokens[3] == 3);
}

TEST_CASE("batcher: prefix caching skips the cached blocks of an earlier prompt", "[batcher]")
{
  const std::vector<uint64_t> ids = {1, 2, 3};
  Batcher b(caching_config(), InstanceRole::Colocated);
  Log log;
  b.add({1, 48, 1, 0, 0, &ids});
  CHECK(b.plan().prefill_tokens == 48);
  b.complete(log);
  b.add({2, 48, 1, 0, 0, &ids});
  CHECK(b.plan().prefill_tokens == 1);  // all but the last token hit
  CHECK(b.prefix_hit_tokens() == 47);
  b.complete(log);
  CHECK(log.hit_blocks == 3);
}

TEST_CASE("batcher: without prefix caching the same prompt is prefilled again", "[batcher]")
{
  const std::vector<uint64_t> ids = {1, 2, 3};
  Batcher b(config(100), InstanceRole::Colocated);
  Log log;
  b.add({1, 48, 1, 0, 0, &ids});
  drain(b, log);
  b.add({2, 48, 1, 0, 0, &ids});
  CHECK(b.plan().prefill_tokens == 32);
  CHECK(b.prefix_hit_tokens() == 0);
}

TEST_CASE("batcher: without chunking, whole prompts run in iterations without decodes", "[batcher]")
{
  BatcherConfig c = config(100);
  c.scheduler     = batch_scheduler("v0");
  Batcher b(c, InstanceRole::Colocated);
  Log log;
  b.add({1, 10, 50});
  b.plan();
  b.complete(log);  // 1 decodes from now on
  b.add({2, 100, 2});
  BatchWork w = b.plan();
  CHECK(w.prefill_tokens == 100);  // longer than max_batch_tokens, so alone
  CHECK(w.decodes == 0);           // the decode of 1 waits
  b.complete(log);
  w = b.plan();
  CHECK(w.decodes == 2);
  CHECK(w.prefill_tokens == 0);
  b.complete(log);
}

TEST_CASE("batcher: steady decode steps stop at the first sequence to end and at the free blocks", "[batcher]")
{
  Batcher b(config(10), InstanceRole::DecodeOnly);  // 160 tokens of KV
  Log log;
  b.add({1, 16, 30, 16, 1});
  b.add({2, 16, 8, 16, 1});
  CHECK(b.steady_decode_steps(100) == 0);  // both wait to be admitted
  b.plan();
  b.complete(log);                         // generated: 2 each
  CHECK(b.steady_decode_steps(100) == 6);  // request 2 has 6 tokens left
  CHECK(b.steady_decode_steps(4) == 4);
  const BatchWork w = b.decode_work(3);
  CHECK(w.decodes == 2);
  CHECK(w.decode_context == 2 * (17 + 3 + 1));
  b.add({3, 16, 5, 16, 1});
  CHECK(b.steady_decode_steps(100) == 0);  // one waits
  CHECK(b.plan_steady().decodes == 2);     // and does not join
  b.complete(log);
  CHECK(b.waiting() == 1);
}

TEST_CASE("batcher: steady decode steps shrink to what the free blocks hold", "[batcher]")
{
  Batcher b(config(3), InstanceRole::DecodeOnly);  // 48 tokens of KV
  Log log;
  b.add({1, 15, 100, 15, 1});
  b.add({2, 15, 100, 15, 1});
  b.plan();  // 2 x 1 block; contexts 15 -> 16 after this iteration
  b.complete(log);
  // Each needs a second block at context 17, the one free block covers one of them.
  CHECK(b.steady_decode_steps(100) == 0);
}

TEST_CASE("batcher: a preempted sequence is not readmitted at once to be preempted again", "[batcher]")
{
  // 16 blocks (256 tokens); four sequences of 64 + 64 tokens need 32 blocks at the end.
  BatcherConfig c    = config(16);
  c.max_batch_tokens = 256;
  c.prefill_chunk    = 16;
  Batcher b(c, InstanceRole::Colocated);
  Log log;
  for (int64_t id = 0; id < 4; ++id)
    b.add({id, 64, 64});
  drain(b, log);
  for (int64_t id = 0; id < 4; ++id)
    CHECK(log.tokens[id] == 64);
  CHECK(b.preemptions() >= 1);
  CHECK(b.preemptions() <= 4);  // each sequence at most once; readmitting a victim at once thrashes
}

TEST_CASE("batcher: a failure drops every sequence, planned or waiting, their blocks and the prefix cache", "[batcher]")
{
  BatcherConfig c                 = caching_config();
  c.max_batch_size                = 2;
  const std::vector<uint64_t> ids = {1, 2, 3};
  Batcher b(c, InstanceRole::Colocated);
  Log log;
  b.add({1, 48, 1, 0, 0, &ids});
  drain(b, log);  // its blocks are cached now
  b.add({4, 32, 10});
  b.add({2, 48, 5, 0, 0, &ids});
  b.add({3, 16, 5});  // waits: the batch holds two sequences
  b.plan();           // planned, not completed: the failure cuts the iteration
  CHECK(b.used_blocks() > 0);
  CHECK(b.drop_all(log) == std::vector<int64_t>{2, 3, 4});
  CHECK(b.idle());
  CHECK(b.used_blocks() == 0);
  b.add({5, 48, 1, 0, 0, &ids});
  CHECK(b.plan().prefill_tokens == 48);  // the cache went with the failure
  CHECK(b.prefix_hit_tokens() == 47);    // only the hit before it
  b.complete(log);
  b.forget_cache();
  b.add({6, 48, 1, 0, 0, &ids});
  CHECK(b.plan().prefill_tokens == 48);  // forgotten while idle too
}

TEST_CASE(
    "batcher: fits: only the prompt must clear the watermark; prompt and output must fit the blocks and max_model_len",
    "[batcher]")
{
  BatcherConfig c;
  c.scheduler        = batch_scheduler("v1");
  c.kv_blocks        = 10;
  c.block_size       = 16;
  c.watermark_blocks = 4;
  Batcher b(c, InstanceRole::Colocated);
  CHECK(b.fits(96, 160));        // 6 blocks of prompt (10 - 4 allowed), 10 in all
  CHECK_FALSE(b.fits(97, 160));  // a 7th prompt block eats into the watermark
  CHECK_FALSE(b.fits(96, 161));  // 11 blocks in all
  c.watermark_blocks = 0;
  c.max_model_len    = 100;
  Batcher capped(c, InstanceRole::Colocated);
  CHECK(capped.fits(99, 100));
  CHECK_FALSE(capped.fits(100, 100));  // a prompt that reaches the cap
  CHECK_FALSE(capped.fits(50, 101));
}

TEST_CASE("batcher: a sequence preempted by recompute finds its prompt's blocks in the prefix cache", "[batcher]")
{
  // 8 blocks of 16 tokens hold both 48-token prompts (3 blocks each) but not both outputs: the
  // later one is preempted. Its 3 prompt blocks stay cached while the earlier one grows to 5
  // blocks (3 free), so it recomputes only its output so far.
  const std::vector<uint64_t> first = {1, 2, 3}, second = {11, 12, 13};
  const auto run = [&](bool caching) {
    BatcherConfig c  = caching_config();
    c.kv_blocks      = 8;
    c.prefix_caching = caching;
    auto b           = std::make_unique<Batcher>(c, InstanceRole::Colocated);
    Log log;
    b->add({1, 48, 20, 0, 0, &first});
    b->add({2, 48, 20, 0, 0, &second});
    drain(*b, log);
    CHECK(log.tokens[2] == 20);
    return b;
  };
  const auto cached = run(true), plain = run(false);
  CHECK(cached->preemptions() == 1);
  CHECK(plain->preemptions() == 1);
  CHECK(plain->recomputed_tokens() > 48);                                 // its prompt and output so far
  CHECK(cached->recomputed_tokens() == plain->recomputed_tokens() - 48);  // the prompt was cached
  CHECK(cached->prefix_hit_tokens() == 48);
}

TEST_CASE("batcher: a prefix block evicted while a sequence waits is no hit when it is admitted", "[batcher]")
{
  // 8 blocks. Prompt 1 leaves its 3 blocks cached; prompt 2 (7 blocks) leaves room for one, its
  // head; prompt 3, the same as 1, waits for blocks, and prompt 2's first decode block evicts that
  // head before 3 is admitted.
  const std::vector<uint64_t> shared = {1, 2, 3}, other = {21, 22, 23, 24, 25, 26, 27};
  BatcherConfig c    = caching_config();
  c.kv_blocks        = 8;
  c.max_batch_tokens = 512;
  c.prefill_chunk    = 512;
  Batcher b(c, InstanceRole::Colocated);
  Log log;
  b.add({1, 48, 1, 0, 0, &shared});
  drain(b, log);
  b.add({2, 112, 10, 0, 0, &other});
  b.add({3, 48, 1, 0, 0, &shared});
  drain(b, log);
  CHECK(log.tokens[3] == 1);
  CHECK(b.prefix_hit_tokens() == 0);
}

TEST_CASE("batcher: steady decode steps applied together leave what stepping one by one leaves", "[batcher]")
{
  // Three sequences decoding, contexts 20, 31 and 47 tokens, with 40, 50 and 60 tokens to go:
  // 39 steady steps, several block boundaries crossed on the way.
  const auto start = [](Batcher& b, Log& log) {
    b.add({1, 20, 41, 20, 1});
    b.add({2, 31, 51, 31, 1});
    b.add({3, 47, 61, 47, 1});
    b.plan();
    b.complete(log);
  };
  Batcher one_by_one(config(40), InstanceRole::DecodeOnly), together(config(40), InstanceRole::DecodeOnly);
  Log a, b;
  start(one_by_one, a);
  start(together, b);
  const int64_t steps = together.steady_decode_steps(1000);
  REQUIRE(steps == 39);
  for (int64_t j = 0; j + 1 < steps; ++j) {
    CHECK(together.decode_work(j).decode_context == one_by_one.decode_work(0).decode_context);
    one_by_one.plan_steady();
    CHECK(together.kv_used_share_ahead(j) == one_by_one.kv_used_share());
    one_by_one.complete(a);
  }
  together.advance_steady(steps - 1, b);
  CHECK(together.iterations() == one_by_one.iterations());
  CHECK(together.used_blocks() == one_by_one.used_blocks());
  CHECK(together.decode_work(0).decode_context == one_by_one.decode_work(0).decode_context);
  // The last step, and what follows, as usual: request 1 ends with it, its 40 tokens told in one
  // run from iteration 0.
  one_by_one.plan_steady();
  together.plan_steady();
  one_by_one.complete(a);
  together.complete(b);
  CHECK(b.finished_ids == std::vector<int64_t>{1});
  CHECK(a.finished_ids == b.finished_ids);
  CHECK(b.tokens == std::map<int64_t, int>{{1, 40}});
  CHECK(together.free_blocks() == one_by_one.free_blocks());
  // The others' runs are told when they are dropped.
  one_by_one.drop_all(a);
  together.drop_all(b);
  CHECK(b.tokens == std::map<int64_t, int>{{1, 40}, {2, 40}, {3, 40}});
  CHECK(a.tokens == b.tokens);
}

TEST_CASE("steady decodes: how many iterations of a run a wait applies", "[batcher]")
{
  const std::vector<double> ends = {1, 2, 3, 4};
  const auto check_done          = [&ends](double now, bool submitted, double fail_at, int64_t done, bool failed) {
    const SteadyStepsDone r = steady_steps_done(ends, now, submitted, fail_at);
    CHECK(r.done == done);
    CHECK(r.failed == failed);
  };
  check_done(2.5, true, 10, 3, false);   // woken by a submission: the two that ended and the one under way
  check_done(2, true, 10, 2, false);     // a submission exactly as one ends: that one, not the next
  check_done(4, false, 10, 4, false);    // no submission: all of them by their end
  check_done(2.5, false, 2.5, 2, true);  // a failure at 2.5 cut the wait: two applied, the third cut
  check_done(2.5, true, 2.8, 2, true);   // a submission at 2.5, a failure at 2.8: the one under way does not end
}

TEST_CASE("token timeline: end times by iteration, the oldest forgotten once it has grown", "[batcher]")
{
  TokenTimeline timeline;
  for (int i = 0; i < 4095; ++i)
    timeline.push(0.5 * i);
  CHECK_FALSE(timeline.grown());
  timeline.push(0.5 * 4095);
  REQUIRE(timeline.grown());
  timeline.forget(4000);  // 96 left: it looks again at 4,096
  CHECK(*timeline.from(4000) == 2000);
  CHECK(timeline.from(4095)[0] == 0.5 * 4095);
  CHECK_FALSE(timeline.grown());
  for (int i = 4096; i < 8095; ++i)
    timeline.push(0.5 * i);
  CHECK_FALSE(timeline.grown());
  timeline.push(0.5 * 8095);
  CHECK(timeline.grown());                         // 4,096 held again
  CHECK(timeline.from(4000)[4095] == 0.5 * 8095);  // contiguous from any iteration kept
}
