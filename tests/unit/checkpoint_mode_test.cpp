// The checkpoint modes (models/checkpoint_mode/) as pure decision logic: the steps a checkpoint
// blocks training for, whether it reaches the parallel file system and when in the background,
// and when a node-local checkpoint survives failed writers. Expected figures are worked out by
// hand from each file's documented formula.
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_mode.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace llsim;

namespace {

// Groups of 1, 4, 5 and 1024 nodes (the coordinated barrier depends on the count), 64 GB each.
const char* const kPlatform = R"(
groups:
  one: {count: 1, memory: 64GB, nic: {bandwidth: 1GBps}}
  four: {count: 4, memory: 64GB, nic: {bandwidth: 1GBps}}
  five: {count: 5, memory: 64GB, nic: {bandwidth: 1GBps}}
  big: {count: 1024, memory: 64GB, nic: {bandwidth: 1GBps}}
backbone: {bandwidth: 1GBps}
)";

const test::World& world()
{
  static const test::World w(kPlatform);
  return w;
}

std::unique_ptr<CheckpointMode> make(const std::string& yaml, const std::string& group = "four",
                                     double node_state_B = 10e9)
{
  const test::World& w = world();
  return Registry<CheckpointMode>::create(w.yaml(yaml, "mode"), {*w.platform, *w.platform->find(group), node_state_B});
}

bool writes(const CheckpointStep& s, IoKind kind, double share = 1)
{
  return s.is_io && s.io == kind && s.share == Approx(share);
}

bool is_pause(const CheckpointStep& s, double seconds)
{
  return !s.is_io && s.pause_s == Approx(seconds).epsilon(1e-12);
}

// The coordinated mode's quiesce pause: its first blocking step.
double quiesce_s(const std::string& yaml, const std::string& group)
{
  const auto steps = make(yaml, group)->blocking(1);
  REQUIRE(steps.size() == 2);
  REQUIRE_FALSE(steps[0].is_io);
  return steps[0].pause_s;
}

// A mode whose checkpoints all reach the parallel file system while training waits, none in the
// background and nothing on node-local storage.
void check_foreground_pfs_only(const CheckpointMode& m, int64_t k)
{
  CHECK_FALSE(m.background_pfs(k));
  CHECK(m.reaches_pfs(k));
  CHECK(m.local_B(1e12, k) == 0);
}

void check_no_local_level(const CheckpointMode& m)
{
  CHECK_FALSE(m.needs_local_level());
  CHECK(m.local_recovery().empty());
  CHECK_FALSE(m.local_recoverable({}, 4));
}

}  // namespace

TEST_CASE("checkpoint mode blocking: one parallel-file-system write, nothing local", "[checkpoint_mode]")
{
  const auto m = make("{impl: blocking}");
  for (int64_t k : {1, 2, 10}) {
    const auto steps = m->blocking(k);
    REQUIRE(steps.size() == 1);
    CHECK(writes(steps[0], IoKind::PfsWrite));
    check_foreground_pfs_only(*m, k);
  }
  check_no_local_level(*m);
  CHECK_THROWS_WITH(make("{impl: blocking, interval: 1s}"), Catch::Contains("unknown key 'interval'"));
}

TEST_CASE("checkpoint mode async: a snapshot pause of state / bandwidth, then the PFS in the background",
          "[checkpoint_mode]")
{
  // Default 10 GB/s: a node's 10 GB take 1 s; at 4 GB/s 2.5 s; 30 GB at 4 GB/s 7.5 s.
  const auto m = make("{impl: async}");
  REQUIRE(m->blocking(1).size() == 1);
  CHECK(is_pause(m->blocking(1)[0], 1.0));
  CHECK(is_pause(make("{impl: async, snapshot_bandwidth: 4GBps}")->blocking(3)[0], 2.5));
  CHECK(is_pause(make("{impl: async, snapshot_bandwidth: 4GBps}", "four", 30e9)->blocking(1)[0], 7.5));
  for (int64_t k : {1, 2, 7}) {
    CHECK(m->background_pfs(k));
    CHECK(m->reaches_pfs(k));
    CHECK(m->local_B(1e12, k) == 0);
  }
  CHECK_FALSE(m->needs_local_level());
  CHECK(m->local_recovery().empty());
  CHECK_FALSE(m->local_recoverable({}, 4));
}

TEST_CASE("checkpoint mode async: the snapshot must fit in memory x memory_share", "[checkpoint_mode]")
{
  // 64 GB x 0.5 = 32 GB of room: 32 GB fit, 33 GB do not; memory_share 0.6 (38.4 GB) lets them.
  CHECK_NOTHROW(make("{impl: async}", "four", 32e9));
  CHECK_THROWS_WITH(make("{impl: async}", "four", 33e9), Catch::Contains("mode.memory_share") &&
                                                             Catch::Contains("needs 33 GB of host memory") &&
                                                             Catch::Contains("group 'four' allows 32 GB"));
  CHECK_NOTHROW(make("{impl: async, memory_share: 0.6}", "four", 38.4e9));
  CHECK_THROWS_AS(make("{impl: async, memory_share: 0.6}", "four", 38.5e9), ConfigError);
  CHECK_THROWS_AS(make("{impl: async, memory_share: 1.5}"), ConfigError);
  CHECK_THROWS_AS(make("{impl: async, snapshot_bandwidth: 0GBps}"), ConfigError);
}

TEST_CASE("checkpoint mode multilevel: the local levels block, every flush_every-th goes to the PFS",
          "[checkpoint_mode]")
{
  const auto single  = make("{impl: multilevel, level: single, flush_every: 3}");
  const auto partner = make("{impl: multilevel, level: partner, flush_every: 3}");
  const auto parity  = make("{impl: multilevel, level: xor, xor_set: 5, flush_every: 3}");
  for (const auto* m : {single.get(), partner.get(), parity.get()}) {
    CHECK(m->needs_local_level());
    for (int64_t k = 1; k <= 9; ++k) {
      CHECK(m->background_pfs(k) == (k % 3 == 0));
      CHECK(m->reaches_pfs(k) == (k % 3 == 0));
    }
  }
  // single: the own disk only (B); partner: a full copy on the partner (2B); xor over 5 nodes:
  // a parity share 1/(5-1) = 0.25 (1.25 B).
  REQUIRE(single->blocking(1).size() == 1);
  CHECK(writes(single->blocking(1)[0], IoKind::LocalWrite));
  REQUIRE(partner->blocking(1).size() == 2);
  CHECK(writes(partner->blocking(1)[0], IoKind::LocalWrite));
  CHECK(writes(partner->blocking(1)[1], IoKind::PartnerCopy, 1.0));
  REQUIRE(parity->blocking(2).size() == 2);
  CHECK(writes(parity->blocking(2)[1], IoKind::PartnerCopy, 0.25));
  CHECK(single->local_B(1e12, 1) == Approx(1e12));
  CHECK(partner->local_B(1e12, 1) == Approx(2e12));
  CHECK(parity->local_B(1e12, 1) == Approx(1.25e12));
  // Recovery reads the own copy back and, beyond single, rebuilds the lost parts.
  REQUIRE(single->local_recovery().size() == 1);
  CHECK(writes(single->local_recovery()[0], IoKind::LocalRead));
  REQUIRE(parity->local_recovery().size() == 2);
  CHECK(writes(parity->local_recovery()[0], IoKind::LocalRead));
  CHECK(writes(parity->local_recovery()[1], IoKind::PartnerCopy, 0.25));
  // SCR's defaults: partner, flush every 10th.
  const auto defaults = make("{impl: multilevel}");
  CHECK(defaults->blocking(1).size() == 2);
  CHECK_FALSE(defaults->background_pfs(9));
  CHECK(defaults->background_pfs(10));
  CHECK(defaults->local_B(1e9, 1) == Approx(2e9));
}

TEST_CASE("checkpoint mode multilevel: which lost writers leave the node-local checkpoint usable", "[checkpoint_mode]")
{
  // single: any lost node loses it.
  const auto single = make("{impl: multilevel, level: single}");
  CHECK(single->local_recoverable({}, 4));
  CHECK_FALSE(single->local_recoverable({2}, 4));
  // partner: writer w's copy is on writer (w + 1) mod N; lost only when both are.
  const auto partner = make("{impl: multilevel, level: partner}");
  CHECK(partner->local_recoverable({}, 4));
  CHECK(partner->local_recoverable({0}, 4));
  CHECK(partner->local_recoverable({0, 2}, 4));
  CHECK_FALSE(partner->local_recoverable({0, 1}, 4));
  CHECK_FALSE(partner->local_recoverable({0, 3}, 4));  // 3's partner is 0 (wraps around)
  CHECK(partner->local_recoverable({1, 3}, 4));
  // xor with sets of 4: {0..3}, {4..7}; one lost node per set is rebuilt, two are not.
  const auto parity = make("{impl: multilevel, level: xor, xor_set: 4}");
  CHECK(parity->local_recoverable({3, 4}, 8));
  CHECK(parity->local_recoverable({0, 7}, 8));
  CHECK_FALSE(parity->local_recoverable({0, 3}, 8));
  CHECK_FALSE(parity->local_recoverable({5, 6}, 8));
}

TEST_CASE("checkpoint mode multilevel: bad keys", "[checkpoint_mode]")
{
  CHECK_THROWS_WITH(make("{impl: multilevel, level: double}"),
                    Catch::Contains("unknown level 'double' (expected single, partner or xor)"));
  CHECK_THROWS_AS(make("{impl: multilevel, flush_every: 0}"), ConfigError);
  CHECK_THROWS_AS(make("{impl: multilevel, xor_set: 1}"), ConfigError);
}

TEST_CASE("checkpoint mode multilevel: the memory tier snapshots every checkpoint, the local level every N-th",
          "[checkpoint_mode]")
{
  // 5 GB per node: the snapshot at 5 GB/s takes 1 s, the partner copy at 2 GB/s 2.5 s.
  const auto m          = make("{impl: multilevel, memory: partner, local_every: 3, flush_every: 6, "
                                        "snapshot_bandwidth: 5GBps, partner_bandwidth: 2GBps}",
                               "four", 5e9);
  const MemoryTier tier = m->memory_tier();
  CHECK(tier.on);
  CHECK(tier.snapshot_s == Approx(1));
  CHECK(tier.partner_copy_s == Approx(2.5));
  REQUIRE(m->blocking(1).size() == 1);
  CHECK(is_pause(m->blocking(1)[0], 1));
  REQUIRE(m->blocking(3).size() == 3);  // the snapshot, then the local write and its partner copy
  CHECK(is_pause(m->blocking(3)[0], 1));
  CHECK(writes(m->blocking(3)[1], IoKind::LocalWrite));
  CHECK(writes(m->blocking(3)[2], IoKind::PartnerCopy));
  CHECK_FALSE(m->writes_local(2));
  CHECK(m->writes_local(6));
  CHECK(m->local_B(1e12, 2) == 0);
  CHECK(m->local_B(1e12, 3) == Approx(2e12));
  CHECK_FALSE(m->reaches_pfs(3));
  CHECK(m->background_pfs(6));
  // Without the tier: no pause, every checkpoint node-local (the defaults).
  const auto plain = make("{impl: multilevel}");
  CHECK_FALSE(plain->memory_tier().on);
  CHECK(plain->writes_local(1));
  CHECK(writes(plain->blocking(1)[0], IoKind::LocalWrite));
}

TEST_CASE("checkpoint mode multilevel: partner_offset sets whose copies a node holds", "[checkpoint_mode]")
{
  // 8 writers; partners 2 apart: 0 -> 2, 1 -> 3, ..., 7 -> 1.
  const auto m = make("{impl: multilevel, level: partner, partner_offset: 2}");
  CHECK(m->partner_offset() == 2);
  CHECK(m->local_recoverable({0, 1}, 8));  // neighbours: each one's copy is 2 away
  CHECK_FALSE(m->local_recoverable({0, 2}, 8));
  CHECK_FALSE(m->local_recoverable({7, 1}, 8));  // wrapping around
  CHECK(partners_survive({0, 1}, 8, 2));
  CHECK_FALSE(partners_survive({0, 1}, 8, 1));
  CHECK(make("{impl: multilevel}")->partner_offset() == 1);
  CHECK_THROWS_AS(make("{impl: multilevel, partner_offset: 0}"), ConfigError);
}

TEST_CASE("checkpoint mode multilevel: the memory tier's room and keys", "[checkpoint_mode]")
{
  // 4 x state in 64 GB x 0.5: 8 GB per node fit, 8.1 GB do not.
  CHECK_NOTHROW(make("{impl: multilevel, memory: partner}", "four", 8e9));
  CHECK_THROWS_WITH(make("{impl: multilevel, memory: partner}", "four", 8.1e9),
                    Catch::Contains("mode.memory_share") && Catch::Contains("needs 32.4 GB of host memory") &&
                        Catch::Contains("allows 32 GB"));
  CHECK_NOTHROW(make("{impl: multilevel, memory: partner, memory_share: 0.6}", "four", 9e9));
  CHECK_THROWS_WITH(make("{impl: multilevel, memory: yes}"),
                    Catch::Contains("unknown memory 'yes' (expected none or partner)"));
  CHECK_THROWS_WITH(make("{impl: multilevel, local_every: 2}"),
                    Catch::Contains("mode.local_every") && Catch::Contains("add memory: partner"));
  for (const char* key : {"snapshot_bandwidth: 1GBps", "partner_bandwidth: 1GBps", "memory_share: 0.4"})
    CHECK_THROWS_WITH(make(std::string("{impl: multilevel, ") + key + "}", "four", 1e9),
                      Catch::Contains("applies to the memory tier only"));
  CHECK_THROWS_AS(make("{impl: multilevel, memory: partner, local_every: 0}", "four", 1e9), ConfigError);
  CHECK_THROWS_AS(make("{impl: multilevel, memory: partner, partner_bandwidth: 0GBps}", "four", 1e9), ConfigError);
}

TEST_CASE("checkpoint mode coordinated: a quiesce pause, then the parallel write", "[checkpoint_mode]")
{
  const auto m = make("{impl: coordinated}");
  for (int64_t k : {1, 2, 5}) {
    const auto steps = m->blocking(k);
    REQUIRE(steps.size() == 2);
    CHECK_FALSE(steps[0].is_io);
    CHECK(writes(steps[1], IoKind::PfsWrite));
    check_foreground_pfs_only(*m, k);
  }
  check_no_local_level(*m);
}

TEST_CASE("checkpoint mode coordinated: quiesce = neighbours x per_neighbour + ceil(log2 nodes) x barrier_step",
          "[checkpoint_mode]")
{
  // Defaults 8 neighbours x 2 ms = 16 ms, plus barrier steps of 20 us:
  //   4 nodes: log2 4 = 2 steps -> 16.04 ms;  5 nodes: ceil(log2 5) = 3 -> 16.06 ms;
  //   1 node: counted as 2 nodes, 1 step -> 16.02 ms;  1024 nodes: 10 steps -> 16.2 ms.
  CHECK(quiesce_s("{impl: coordinated}", "four") == Approx(0.01604).epsilon(1e-12));
  CHECK(quiesce_s("{impl: coordinated}", "five") == Approx(0.01606).epsilon(1e-12));
  CHECK(quiesce_s("{impl: coordinated}", "one") == Approx(0.01602).epsilon(1e-12));
  CHECK(quiesce_s("{impl: coordinated}", "big") == Approx(0.0162).epsilon(1e-12));
  // Each key changes the pause (4 nodes, 2 barrier steps):
  //   neighbours 3:        3 x 2 ms + 2 x 20 us = 6.04 ms
  //   per_neighbour 5 ms:  8 x 5 ms + 40 us     = 40.04 ms
  //   barrier_step 1 ms:   16 ms + 2 x 1 ms     = 18 ms
  CHECK(quiesce_s("{impl: coordinated, neighbours: 3}", "four") == Approx(0.00604).epsilon(1e-12));
  CHECK(quiesce_s("{impl: coordinated, per_neighbour: 5ms}", "four") == Approx(0.04004).epsilon(1e-12));
  CHECK(quiesce_s("{impl: coordinated, barrier_step: 1ms}", "four") == Approx(0.018).epsilon(1e-12));
  // Only the barrier left (no neighbours): 10 steps of 1 ms on 1024 nodes; nothing at all: 0.
  CHECK(quiesce_s("{impl: coordinated, neighbours: 0, barrier_step: 1ms}", "big") == Approx(0.010).epsilon(1e-12));
  CHECK(quiesce_s("{impl: coordinated, neighbours: 0, barrier_step: 0s}", "big") == 0);
  // 12 neighbours x 0.5 s + 3 steps x 0.25 s on 5 nodes = 6.75 s.
  CHECK(quiesce_s("{impl: coordinated, neighbours: 12, per_neighbour: 0.5s, barrier_step: 0.25s}", "five") ==
        Approx(6.75).epsilon(1e-12));
}

TEST_CASE("checkpoint mode coordinated: bad keys", "[checkpoint_mode]")
{
  CHECK_THROWS_AS(make("{impl: coordinated, neighbours: -1}"), ConfigError);
  CHECK_THROWS_AS(make("{impl: coordinated, per_neighbour: -1ms}"), ConfigError);
  CHECK_THROWS_AS(make("{impl: coordinated, barrier_step: -1us}"), ConfigError);
  CHECK_THROWS_WITH(make("{impl: coordinated, neighbors: 4}"), Catch::Contains("unknown key 'neighbors'"));
}
