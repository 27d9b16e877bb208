#include "sim/train/layout_levers.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

struct Case {
  Parallelism par{4, 2, 2, 1};  // 16 ranks
  ModelState model;
  IoSystem io;
  Case()
  {
    model.params          = 1e9;
    model.B_per_param     = 10;  // 10 GB
    model.embedding_stage = 3;   // stage 0: 3/4 of the state
    io.nodes              = 16;
    io.targets            = 8;
    io.stripe_B           = 1 << 20;
    io.process_Bps        = 1e9;
  }
};

}  // namespace

TEST_CASE("layout: naive writes whole shards from replica 0, one file on one target each", "[checkpoint_layout]")
{
  Case c;
  const IoPlan naive = plan_checkpoint(LayoutLevers{}, c.model, c.par, c.io);
  REQUIRE(naive.writers.size() == 4);  // replica 0 of 2 stages x 2 tensor ranks
  CHECK(naive.writers[0].node == 0);
  CHECK(naive.writers[0].bytes == Approx(3.75e9));  // stage 0: 7.5 GB over 2 tensor ranks
  CHECK(naive.writers[2].node == 8);                // stage 1 starts at rank 2 * 4 * 2 = 8
  CHECK(naive.total_B() == Approx(1e10));
  CHECK(naive.files() == 4);
  for (size_t w = 0; w < 4; ++w) {
    REQUIRE(naive.writers[w].pieces.size() == 1);   // one file on one target
    CHECK(naive.writers[w].pieces[0].target == w);  // round-robin
  }
}

TEST_CASE("layout: pieces of about total / (2 x targets), never more than the file stripes", "[checkpoint_layout]")
{
  Case c;
  // Even data: 8 stage-0 writers of 937.5 MB and 8 stage-1 writers of 312.5 MB; pieces of
  // 10 GB / (2 x 8 targets) = 625 MB: two for a stage-0 writer, one for a stage-1 writer.
  const IoPlan even = plan_checkpoint(LayoutLevers{true, 2, true, 4}, c.model, c.par, c.io);
  REQUIRE(even.writers.size() == 16);
  CHECK(even.writers[0].bytes == Approx(3.75e9 / 4));
  CHECK(even.writers[0].processes == 2);
  CHECK(even.total_B() == Approx(1e10));
  CHECK(even.files() == 32);
  for (size_t w = 0; w < 16; ++w)
    CHECK(even.writers[w].pieces.size() == (w < 8 ? 2 : 1));
  // Pieces deal the targets round-robin: 24 pieces over 8 targets, three each.
  std::vector<int> per_target(8, 0);
  for (const auto& w : even.writers)
    for (const auto& p : w.pieces)
      per_target[p.target] += 1;
  CHECK(per_target == std::vector<int>(8, 3));
  // Split only (replica 0): a stage-0 writer's 3.75 GB file over all 8 targets becomes 6 pieces
  // of 625 MB on 6 targets; a stage-1 writer's 1.25 GB, 2 pieces.
  const IoPlan split = plan_checkpoint(LayoutLevers{false, 1, true, 0}, c.model, c.par, c.io);
  CHECK(split.writers[0].pieces.size() == 6);
  CHECK(split.writers[2].pieces.size() == 2);
  CHECK(split.writers[0].pieces[0].files + split.writers[0].pieces[1].files == 1);
  // Without split a file is on one target, whatever stripe_count says; with it, on at most
  // stripe_count targets.
  CHECK(plan_checkpoint(LayoutLevers{false, 1, false, 0}, c.model, c.par, c.io).writers[0].pieces.size() == 1);
  CHECK(plan_checkpoint(LayoutLevers{false, 1, true, 2}, c.model, c.par, c.io).writers[0].pieces.size() == 2);
  // A file smaller than stripe_count stripes touches fewer targets.
  Case tiny;
  tiny.io.stripe_B = 1e9;  // 3.75 GB covers 4 stripes
  CHECK(plan_checkpoint(LayoutLevers{false, 1, true, 0}, tiny.model, tiny.par, tiny.io).writers[0].pieces.size() == 4);
}

TEST_CASE("layout: a node's ranks write as one writer", "[checkpoint_layout]")
{
  Case c;
  c.io.nodes          = 4;
  c.io.ranks_per_node = 4;  // ranks 0-3 on node 0 (stage 0, data ranks 0-1, tensor 0-1), ...
  const IoPlan even   = plan_checkpoint(LayoutLevers{true, 1, false, 0}, c.model, c.par, c.io);
  REQUIRE(even.writers.size() == 4);
  CHECK(even.writers[1].node == 1);
  CHECK(even.writers[0].bytes == Approx(4 * 3.75e9 / 4));  // four stage-0 ranks, 1/4 of a shard each
  CHECK(even.writers[3].bytes == Approx(4 * 1.25e9 / 4));
  CHECK(even.total_B() == Approx(1e10));
  // Replica 0 only: node 0 holds data ranks 0 and 1 of stage 0: only data rank 0's two shards.
  const IoPlan naive = plan_checkpoint(LayoutLevers{}, c.model, c.par, c.io);
  REQUIRE(naive.writers.size() == 2);
  CHECK(naive.writers[0].bytes == Approx(2 * 3.75e9));
  CHECK(naive.writers[1].node == 2);
}

TEST_CASE("sharding: what a rank holds and writes", "[checkpoint_layout]")
{
  Case c;  // data 4; stage 0 shard 3.75 GB, of which the weights 2 B of 10 per parameter
  c.model.weight_B_per_param = 2;
  const RankPosition first = position_of(0, c.par), second = position_of(2, c.par);
  REQUIRE((first.data_rank == 0 && second.data_rank == 1));
  for (const Sharding s : {Sharding::None, Sharding::Zero1, Sharding::Zero2, Sharding::Zero3, Sharding::Fsdp}) {
    c.model.sharding = s;
    // A checkpoint holds one copy of the state, whoever writes it.
    for (const bool even : {true, false})
      CHECK(plan_checkpoint(LayoutLevers{even, 1, false, 0}, c.model, c.par, c.io).total_B() == Approx(1e10));
  }
  c.model.sharding = Sharding::None;
  CHECK(rank_state_B(0, c.model, c.par) == Approx(3.75e9));
  CHECK(rank_checkpoint_B(second, c.model, c.par, false) == 0);
  c.model.sharding = Sharding::Zero1;  // weights 0.75 GB held whole, optimizer 3 GB / 4
  CHECK(rank_state_B(0, c.model, c.par) == Approx(0.75e9 + 0.75e9));
  CHECK(rank_checkpoint_B(first, c.model, c.par, false) == Approx(0.75e9 + 0.75e9));
  CHECK(rank_checkpoint_B(second, c.model, c.par, false) == Approx(0.75e9));  // its optimizer shard
  CHECK(rank_checkpoint_B(second, c.model, c.par, true) == Approx(3.75e9 / 4));
  c.model.sharding = Sharding::Fsdp;
  CHECK(rank_state_B(0, c.model, c.par) == Approx(3.75e9 / 4));
  CHECK(rank_checkpoint_B(second, c.model, c.par, false) == Approx(3.75e9 / 4));
  // A node of 4 ranks: ranks 0-3 hold stage 0 (data ranks 0-1, tensor 0-1).
  CHECK(node_state_B(c.model, c.par, 4) == Approx(4 * 3.75e9 / 4));
  c.model.sharding = Sharding::None;
  CHECK(node_state_B(c.model, c.par, 4) == Approx(4 * 3.75e9));
  CHECK(node_state_B(c.model, c.par, 1) == Approx(3.75e9));
  Sharding parsed;
  CHECK((parse_sharding("zero3", &parsed) && parsed == Sharding::Zero3));
  CHECK_FALSE(parse_sharding("zero4", &parsed));
}
