// The training run with checkpoint tiers (multilevel with a memory tier): which tier a restart
// restores from, and what each costs. Timelines are worked out by hand in the comments.
#include "fake_training.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace llsim;
using llsim::test::kMultilevelCosts;
using llsim::test::Run;

namespace {

// 4 nodes of 5 GB each: the snapshot takes 1 s at 5 GB/s, the partner copy 2 s at 2.5 GB/s. The
// local level every 3rd checkpoint (1 s + local write 2 s + partner copy 3 s = 6 s blocking).
Run tiered(int flush_every, std::vector<std::pair<double, int64_t>> failures, int local_every = 3)
{
  Run r("{impl: multilevel, level: partner, memory: partner, local_every: " + std::to_string(local_every) +
            ", flush_every: " + std::to_string(flush_every) +
            ", snapshot_bandwidth: 5GBps, partner_bandwidth: 2.5GBps}",
        "{impl: fixed, interval: 100s}", 60, 5e9);
  r.env.cost     = kMultilevelCosts;
  r.env.failures = std::move(failures);
  return r;
}

}  // namespace

TEST_CASE("tiers: without failures, snapshots block 1 s and every 3rd checkpoint the local write too", "[tiers]")
{
  Run r                    = tiered(6, {});
  const TrainingResult out = r.go();
  // C1 100-101, C2 201-202, C3 302-308 (local), C4 408-409, C5 509-510; the last 10 iterations end at 610.
  CHECK(out.makespan_s == Approx(610));
  CHECK(out.blocking_s == Approx(1 + 1 + 6 + 1 + 1));
  REQUIRE(out.records.size() == 5);
  CHECK(out.records[0].bytes == 0);  // host memory is not storage
  CHECK(out.records[2].bytes == Approx(2e12));
}

TEST_CASE("tiers: a restart restores the newest snapshot from memory, its lost part from the partner", "[tiers]")
{
  Run r                    = tiered(6, {{350, 0}});
  const TrainingResult out = r.go();
  // C3 (it 30) is in memory from 310 (and node-local); the failure at 350 loses 42 s of compute.
  // Restart: 30 s delay; the replaced node gets its part back from its partner and the copy it
  // held for its neighbour (2 x 2 s), then every node copies to its devices (1 s): 385. C4
  // 485-486, C5 586-587, the end at 687.
  CHECK(out.restores_memory == 1);
  CHECK(out.restores_local == 0);
  CHECK(out.wasted_s() == Approx(42));
  CHECK(out.restarting_s == Approx(35));
  CHECK(out.makespan_s == Approx(687));
}

TEST_CASE("tiers: a snapshot whose partner copy is not over is lost; the one before is restored", "[tiers]")
{
  Run r                    = tiered(6, {{203, 0}});
  const TrainingResult out = r.go();
  // C2 ends at 202, its partner copy at 204: the failure at 203 restores C1 (it 10) from memory:
  // 100 s rolled back and 1 s of compute cut. 203 + 35 = 238. Checkpoints are numbered on, so
  // the next is C3 (node-local): 338-344, C4 444-445, C5 545-546, C6 (node-local) 646-652, the
  // end at 752.
  CHECK(out.restores_memory == 1);
  CHECK(out.wasted_s() == Approx(101));
  CHECK(out.makespan_s == Approx(752));
}

TEST_CASE("tiers: a node and its partner lost take the memory and the local copies; the file system stays", "[tiers]")
{
  // C3 is flushed (flush_every 3) in the background from 308, durable at 328; it is also in
  // memory and node-local. A second failure during the restart's delay: writer 2 leaves every
  // part on a partner (memory restore: 360 + 30 + 5 = 395, C4 495-496, C5 596-597, end 697);
  // writer 1 is writer 0's partner, so both lower tiers are gone: read the file system (50 s):
  // 360 + 30 + 50 = 440, C4 540-541, C5 641-642, end 742.
  Run apart                  = tiered(3, {{350, 0}, {360, 2}});
  const TrainingResult kept  = apart.go();
  Run partners               = tiered(3, {{350, 0}, {360, 1}});
  const TrainingResult taken = partners.go();
  CHECK(kept.restores_memory == 1);
  CHECK(kept.restores_pfs == 0);
  CHECK(kept.makespan_s == Approx(697));
  CHECK(taken.restores_memory == 0);
  CHECK(taken.restores_local == 0);
  CHECK(taken.restores_pfs == 1);
  CHECK(taken.makespan_s == Approx(742));
  CHECK(taken.restarts_cut_short == 1);
}

TEST_CASE("tiers: with the memory copy lost, the node-local level restores", "[tiers]")
{
  Run r                    = tiered(6, {{107, 0}}, 1);
  const TrainingResult out = r.go();
  // local_every 1: C1 100-106 (snapshot, local write, partner copy), its memory copy until 108.
  // The failure at 107: the node-local C1, read (4 s) and rebuilt (3 s): 107 + 37 = 144. Then C2
  // 244-250, C3 350-356, C4 456-462, C5 562-568, the end at 668.
  CHECK(out.restores_local == 1);
  CHECK(out.restores_memory == 0);
  CHECK(out.makespan_s == Approx(668));
}

TEST_CASE("tiers: the next checkpoint waits for the previous snapshot's partner copy", "[tiers]")
{
  // A 125-s partner copy (5 GB at 40 MB/s): C1 100-101, copied until 226; C2 due at 201 waits
  // until 226, then 226-227 (26 s of blocking).
  Run r("{impl: multilevel, memory: partner, local_every: 6, partner_bandwidth: 40MBps, snapshot_bandwidth: 5GBps}",
        "{impl: fixed, interval: 100s}", 30, 5e9);
  r.env.cost               = kMultilevelCosts;
  const TrainingResult out = r.go();
  REQUIRE(out.records.size() == 2);
  CHECK(out.records[1].start_s == Approx(201));
  CHECK(out.records[1].blocking_s == Approx(26));
  CHECK(out.makespan_s == Approx(327));
}

TEST_CASE("tiers: with node-local and file-system copies of the same checkpoint, the local one is read", "[tiers]")
{
  // Plain multilevel, flush_every 1: C1 100-105 is flushed by 125. A failure at 150 restores C1
  // from the node-local level (4 + 3 s), not the file system (50 s): 150 + 37 = 187.
  Run r("{impl: multilevel, level: partner, flush_every: 1}", "{impl: fixed, interval: 100s}", 20);
  r.env.cost               = kMultilevelCosts;
  r.env.failures           = {{150, 0}};
  const TrainingResult out = r.go();
  CHECK(out.restores_local == 1);
  CHECK(out.restores_pfs == 0);
  CHECK(out.makespan_s == Approx(187 + 100));
}

TEST_CASE("tiers: nodes that fail at one instant lose their copies together", "[tiers]")
{
  // Writers 0 and 1 (partners) at 350 at once: as the two failures above, but one interruption:
  // 350 + 30 + 50 = 430 from the file system's C3, C4 530-531, C5 631-632, the end at 732.
  Run r                    = tiered(3, {{350, 0}, {350, 1}});
  const TrainingResult out = r.go();
  CHECK(out.failures == 1);
  CHECK(out.restores_pfs == 1);
  CHECK(out.makespan_s == Approx(732));
}

TEST_CASE("tiers: with partners 2 apart, neighbours failing together leave every part on a partner", "[tiers]")
{
  // As above, but writer 0's copies are on writer 2 and writer 1's on writer 3: restore C3 from
  // memory, 350 + 30 + 5 = 385, C4 485-486, C5 586-587, the end at 687.
  Run r("{impl: multilevel, level: partner, memory: partner, local_every: 3, flush_every: 3, partner_offset: 2, "
        "snapshot_bandwidth: 5GBps, partner_bandwidth: 2.5GBps}",
        "{impl: fixed, interval: 100s}", 60, 5e9);
  r.env.cost               = kMultilevelCosts;
  r.env.failures           = {{350, 0}, {350, 1}};
  const TrainingResult out = r.go();
  CHECK(out.restores_memory == 1);
  CHECK(out.makespan_s == Approx(687));
}

TEST_CASE("tiers: checkpoints in host memory only save no file state; the next write carries it", "[tiers]")
{
  // 1 TB of the job's files, all saved (full_copy) with the first write of a checkpoint that
  // writes: C1 and C2 are in memory only (nothing saved, no bytes); C3's local write carries the
  // files too (2 s x 2), so C3 blocks 1 + 4 + 3 = 8 s: 302-310, C4 410-411, C5 511-512, end 612.
  Run r                    = tiered(6, {});
  r.file_state             = Registry<FileStatePolicy>::create(r.world.yaml("{impl: full_copy}"), {});
  r.setup.file_state       = r.file_state.get();
  r.setup.files.count      = 10;
  r.setup.files.size_B     = 1e11;
  const TrainingResult out = r.go();
  REQUIRE(out.records.size() == 5);
  CHECK(out.records[0].bytes == 0);
  CHECK(out.records[1].blocking_s == Approx(1));
  CHECK(out.records[2].blocking_s == Approx(8));
  CHECK(out.records[2].bytes == Approx(3e12));
  CHECK(out.file_state_B == Approx(1e12));
  CHECK(out.makespan_s == Approx(612));
}
