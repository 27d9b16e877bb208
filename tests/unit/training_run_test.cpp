#include "fake_training.hpp"
#include "sim/core/errors.hpp"
#include "sim/train/young_daly.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <set>

using namespace llsim;
using llsim::test::kMultilevelCosts;
using llsim::test::Run;

TEST_CASE("training run: blocking checkpoints and a failure, by hand", "[training_run]")
{
  Run r("{impl: blocking}", "{impl: fixed, interval: 200s}", 100);
  r.env.cost               = {{IoKind::PfsWrite, 5}, {IoKind::PfsRead, 7}};
  r.env.failures           = {{455, 0}};
  const TrainingResult out = r.go();
  // 0-200 compute, 200-205 C1 (it 20), 205-405, 405-410 C2 (it 40), failure at 455 after 4 more
  // iterations and 5 s: 45 s lost; restart 455 + 30 + 7 = 492 from it 40; then 20 iterations,
  // C3 692-697, 20 iterations, C4 897-902, the last 20 iterations end at 1102.
  CHECK(out.makespan_s == Approx(1102));
  CHECK(out.checkpoints == 4);
  CHECK(out.failures == 1);
  CHECK(out.restarts == 1);
  CHECK(out.wasted_s() == Approx(45));
  CHECK(out.useful_s == Approx(1000));
  CHECK(out.blocking_s == Approx(20));
  CHECK(out.checkpoint_B == Approx(4e12));
  REQUIRE(out.records.size() == 4);
  CHECK(out.records[2].end_s == Approx(697));
  CHECK(out.records[2].iteration == 60);
}

TEST_CASE("training run: coordinated checkpoints block for the quiesce and the write", "[training_run]")
{
  // 4 nodes: quiesce 4 neighbours x 1 s + log2(4) = 2 barrier steps x 0.5 s = 5 s, then the 5-s write.
  const char* const mode = "{impl: coordinated, neighbours: 4, per_neighbour: 1s, barrier_step: 0.5s}";
  Run r(mode, "{impl: fixed, interval: 100s}", 30);
  r.env.cost               = {{IoKind::PfsWrite, 5}, {IoKind::PfsRead, 7}};
  const TrainingResult out = r.go();
  // C1 100-110 (durable at its end), C2 210-220, the last 10 iterations end at 320.
  CHECK(out.makespan_s == Approx(320));
  CHECK(out.checkpoints == 2);
  CHECK(out.blocking_s == Approx(20));
  REQUIRE(out.records.size() == 2);
  CHECK(out.records[0].blocking_s == Approx(10));
  CHECK(out.records[0].durable_s == Approx(110));
  CHECK(out.records[1].end_s == Approx(220));
  // A failure at 212, during C2's quiesce: C2 never happened; the 100 s since C1 are lost; restart
  // 212 + 30 + 7 = 249 from it 10, then 10 iterations, C2 (10 s) and 10 iterations: 459.
  Run f(mode, "{impl: fixed, interval: 100s}", 30);
  f.env.cost               = {{IoKind::PfsWrite, 5}, {IoKind::PfsRead, 7}};
  f.env.failures           = {{212, 0}};
  const TrainingResult hit = f.go();
  CHECK(hit.makespan_s == Approx(459));
  CHECK(hit.checkpoints == 2);
  CHECK(hit.wasted_s() == Approx(100 + 2));  // and the 2 s of C2 cut short
  CHECK(hit.checkpoints_cut_short == 1);
  CHECK(hit.blocking_s == Approx(20));
  REQUIRE(hit.records.size() == 2);
  CHECK(hit.records[1].start_s == Approx(349));
}

TEST_CASE("training run: async persist lost to a failure falls back to the previous one", "[training_run]")
{
  // A node holds 10 GB; snapshot at 10 GB/s = 1 s blocking; persist 50 s in the background.
  Run r("{impl: async, snapshot_bandwidth: 10GBps}", "{impl: fixed, interval: 100s}", 50, 10e9);
  r.env.cost               = {{IoKind::PfsWrite, 50}, {IoKind::PfsRead, 40}};
  r.env.failures           = {{230, 0}};
  const TrainingResult out = r.go();
  // C1 100-101 (persisted at 151), C2 201-202 (persist until 252), failure at 230: C2 is lost,
  // restart from C1 (it 10): 128 s of compute lost, resume at 230 + 30 + 40 = 300; then
  // checkpoints at 400, 501, 602 (1 s each), done at 703.
  CHECK(out.makespan_s == Approx(703));
  CHECK(out.wasted_s() == Approx(128));
  CHECK(out.checkpoints == 5);
  CHECK(out.blocking_s == Approx(5));
  CHECK(out.records[0].durable_s == Approx(151));
  CHECK(out.records[1].durable_s == -1);
}

TEST_CASE("training run: the next checkpoint waits for the previous persist, and that counts as blocking",
          "[training_run]")
{
  Run r("{impl: async, snapshot_bandwidth: 10GBps}", "{impl: fixed, interval: 100s}", 30, 10e9);
  r.env.cost               = {{IoKind::PfsWrite, 150}};
  const TrainingResult out = r.go();
  // C1 100-101, persist until 251; C2 due at 201 waits until 251, then 251-252; persist until 402.
  // The last 10 iterations end at 352 (no checkpoint after the end).
  CHECK(out.makespan_s == Approx(352));
  CHECK(out.blocking_s == Approx(1 + 50 + 1));
  REQUIRE(out.records.size() == 2);
  CHECK(out.records[1].blocking_s == Approx(51));
  CHECK(out.mean_blocking_s == Approx(26));
}

TEST_CASE("training run: multilevel restarts from the partner copy, single from the flush", "[training_run]")
{
  for (const char* level : {"partner", "single"}) {
    Run r(std::string("{impl: multilevel, level: ") + level + ", flush_every: 3}", "{impl: fixed, interval: 100s}", 60);
    r.env.cost               = kMultilevelCosts;
    r.env.failures           = {{505, 0}};
    const TrainingResult out = r.go();
    const bool partner       = std::string(level) == "partner";
    const double block       = partner ? 5 : 2;
    // Checkpoint k ends at 100k + kb (b = blocking); C3 is flushed, durable 20 s after it ends.
    CHECK(out.records[2].durable_s == Approx(300 + 3 * block + 20));
    CHECK(out.records[0].durable_s == -1);
    // The failure at 505 comes during the iterations after C4 (ended 400 + 4b).
    const double lost = 505 - (400 + 4 * block);
    if (partner) {
      // Restart from C4 (it 40) after 30 s and the partner rebuild (4 + 3 s): 542; then 10
      // iterations, C5 (5 s), the last 10 iterations.
      CHECK(out.wasted_s() == Approx(lost));
      CHECK(out.makespan_s == Approx(542 + 100 + 5 + 100));
    } else {
      // The node's local copy is gone: restart from the flushed C3 (it 30), reading 50 s; then
      // 10 iterations and C4, 10 and C5, the last 10 (C6 due at it 60 is the end).
      CHECK(out.wasted_s() == Approx(lost + 100));
      CHECK(out.makespan_s == Approx(505 + 30 + 50 + 3 * 100 + 2 * block));
    }
  }
}

TEST_CASE("training run: which nodes fail decides whether the partner copies survive", "[training_run]")
{
  const auto run = [](std::vector<std::pair<double, int64_t>> failures) {
    Run r("{impl: multilevel, level: partner, flush_every: 3}", "{impl: fixed, interval: 100s}", 60);
    r.env.cost     = kMultilevelCosts;
    r.env.failures = std::move(failures);
    return r.go();
  };
  // Writer 0 fails at 505, then during the restart (30 s delay) writer 2 or writer 1: writer 1
  // holds writer 0's partner copy, so C4 (node-local, it 40) is gone and the job restarts from
  // the flushed C3 (it 30) on the file system; writer 2 does not, so C4 is rebuilt.
  const TrainingResult apart    = run({{505, 0}, {520, 2}});
  const TrainingResult partners = run({{505, 0}, {520, 1}});
  CHECK(apart.failures == 2);
  CHECK(partners.failures == 2);
  CHECK(apart.restarts == 1);  // the first restart never got past its delay
  // apart: restart from C4 at 520 + 30 + 7 = 557; 10 iterations, C5 (5 s), 10 iterations.
  CHECK(apart.makespan_s == Approx(557 + 100 + 5 + 100));
  // partners: restart from C3 at 520 + 30 + 50 = 600, then 3 x 100 s of iterations and C4, C5.
  CHECK(partners.makespan_s == Approx(600 + 300 + 2 * 5));
  CHECK(partners.wasted_s() == Approx(apart.wasted_s() + 100));
  // apart restores C4 node-locally: writer 0's part from its partner's node; writer 2 failed
  // during the delay, and its part is read from its partner too.
  CHECK(apart.restarts_cut_short == 1);
}

TEST_CASE("training run: a lost writer's part is read from its partner, not its own node", "[training_run]")
{
  Run r("{impl: multilevel, level: partner, flush_every: 3}", "{impl: fixed, interval: 100s}", 60);
  r.env.cost     = kMultilevelCosts;
  r.env.failures = {{505, 0}, {520, 2}};
  r.go();
  REQUIRE(r.env.local_reads.size() == 1);
  CHECK(r.env.local_reads[0] == std::set<size_t>{0, 2});
  // With no node lost since the checkpoint (a single level restores only then), nothing is.
  Run single("{impl: multilevel, level: single, flush_every: 3}", "{impl: fixed, interval: 100s}", 60);
  single.env.cost = r.env.cost;
  single.go();
  CHECK(single.env.local_reads.empty());
}

TEST_CASE("training run: makespan = useful + blocking + wasted + restarting, cut-short restarts included",
          "[training_run]")
{
  // A resumed job; failures in compute (455), during the restart's delay (470), during the
  // next restart's recovery read (503), and in compute again (1003).
  Run r("{impl: blocking}", "{impl: fixed, interval: 200s}", 100);
  r.env.cost               = {{IoKind::PfsWrite, 5}, {IoKind::PfsRead, 7}};
  r.env.failures           = {{455, 0}, {470, 1}, {503, 2}, {1003, 3}};
  r.setup.resume           = true;
  const TrainingResult out = r.go();
  // 0-7 resume read; 7-207 compute, C1 207-212, 212-412, C2 412-417 (it 40), failure at 455;
  // restart cut short at 470 (delay); again at 470 + 30 = 500, reading 500-507, cut at 503; the
  // restart from 503 ends at 540. 540-740, C3 740-745, 745-945, C4 945-950 (it 80), failure at
  // 1003 during compute; restart 1003-1040, then 200 s: 1240.
  CHECK(out.makespan_s == Approx(1240));
  CHECK(out.restarts_cut_short == 2);
  CHECK(out.restarts == 2);
  CHECK(out.restarting_s == Approx(7 + (540 - 455) + 37));
  CHECK(out.makespan_s == Approx(out.useful_s + out.blocking_s + out.wasted_s() + out.restarting_s));
  // A failure during a checkpoint: its time is wasted, and counted.
  Run c("{impl: blocking}", "{impl: fixed, interval: 200s}", 100);
  c.env.cost               = {{IoKind::PfsWrite, 5}, {IoKind::PfsRead, 7}};
  c.env.failures           = {{203, 0}};
  const TrainingResult hit = c.go();
  // C1 200-205 cut at 203: 200 s of compute and 3 s of checkpoint lost; restart from scratch
  // (nothing to read) 203-233; then 1000 s of compute and 4 checkpoints: 233 + 1000 + 20.
  CHECK(hit.checkpoints_cut_short == 1);
  CHECK(hit.wasted_s() == Approx(203));
  CHECK(hit.restarting_s == Approx(30));
  CHECK(hit.makespan_s == Approx(1253));
  CHECK(hit.makespan_s == Approx(hit.useful_s + hit.blocking_s + hit.wasted_s() + hit.restarting_s));
}

TEST_CASE("training run: Daly's interval uses the mean blocking time measured so far", "[training_run]")
{
  Run r("{impl: blocking}", "{impl: daly}", 2000);
  r.setup.job_mtbf_s       = 1e5;
  r.env.cost               = {{IoKind::PfsWrite, 10}};
  const TrainingResult out = r.go();
  // No cost is known before the first checkpoint (C = 0): it comes after one iteration.
  REQUIRE(out.records.size() > 2);
  CHECK(out.records[0].iteration == 1);
  const double interval = daly_interval(10, 1e5);
  CHECK(out.records[1].iteration == 1 + std::round(interval / 10));
  CHECK(out.mean_blocking_s == Approx(10));
  CHECK(out.interval_s == Approx(interval));
}

TEST_CASE("training run: a run that cannot progress stops with the reason", "[training_run]")
{
  Run r("{impl: blocking}", "{impl: fixed, interval: 100s}", 100);
  r.env.cost = {{IoKind::PfsWrite, 5}, {IoKind::PfsRead, 7}};
  for (int k = 1; k <= 200; ++k)
    r.env.failures.push_back({50.0 + 20.0 * k, 0});  // every 20 s: a restart takes 30 s + 7 s
  r.setup.give_up_after = 100;
  r.setup.job_mtbf_s    = 20;
  CHECK_THROWS_WITH(r.go(), Catch::Contains("cannot progress") && Catch::Contains("job MTBF 20 s") &&
                                Catch::Contains("restart delay 30 s") && Catch::Contains("checkpoint read 7 s"));
}

TEST_CASE("training run: file-state bytes are written with the checkpoint", "[training_run]")
{
  Run r("{impl: blocking}", "{impl: fixed, interval: 100s}", 20);
  r.file_state             = Registry<FileStatePolicy>::create(r.world.yaml("{impl: full_copy}"), {});
  r.setup.file_state       = r.file_state.get();
  r.setup.files.count      = 10;
  r.setup.files.size_B     = 1e11;  // 1 TB of files: the checkpoint carries twice its bytes
  r.env.cost               = {{IoKind::PfsWrite, 5}};
  const TrainingResult out = r.go();
  CHECK(out.checkpoints == 1);
  CHECK(out.file_state_B == 1e12);
  CHECK(out.blocking_s == Approx(10));
}

TEST_CASE("training run: the time each cause of failure cost", "[training_run]")
{
  Run r("{impl: blocking}", "{impl: fixed, interval: 200s}", 100);
  r.env.cost     = {{IoKind::PfsWrite, 5}, {IoKind::PfsRead, 7}};
  r.env.failures = {{455, 0}, {470, 1}, {800, 2}};
  r.env.causes = {{0, {"leaf", FaultClass::Switch}}, {1, {"gpu", FaultClass::Gpu}}, {2, {"leaf", FaultClass::Switch}}};
  const TrainingResult out = r.go();
  // 455: 45 s since C2 (it 40) discarded; restarting from 455 until 470, when the second failure
  // cuts the restart short: leaf costs 45 + 15 = 60 s. 470: nothing more to discard; restart
  // 470 + 30 + 7 = 507. C3 707-712; 800: 88 s of compute discarded, restart 800-837: 125 s.
  REQUIRE(out.interruptions.size() == 2);
  CHECK(out.interruptions[0].cause.name == "leaf");
  CHECK(out.interruptions[0].interruptions == 2);
  CHECK(out.interruptions[0].lost_s == Approx(60 + 125));
  CHECK(out.interruptions[1].cause.fault_class == FaultClass::Gpu);
  CHECK(out.interruptions[1].interruptions == 1);
  CHECK(out.interruptions[1].lost_s == Approx(37));
  // Over all causes: wasted + restarting.
  CHECK(out.interruptions[0].lost_s + out.interruptions[1].lost_s == Approx(out.wasted_s() + out.restarting_s));
}

TEST_CASE("training run: a checkpoint cut short counts in its failure's cost", "[training_run]")
{
  Run r("{impl: blocking}", "{impl: fixed, interval: 200s}", 100);
  r.env.cost               = {{IoKind::PfsWrite, 5}, {IoKind::PfsRead, 7}};
  r.env.failures           = {{203, 0}};
  const TrainingResult out = r.go();
  // C1 starts at 200 and fails at 203: 200 s of compute and 3 s of checkpoint lost, restart
  // 203-233 (from scratch: nothing to read).
  REQUIRE(out.interruptions.size() == 1);
  CHECK(out.interruptions[0].cause.name == "host");
  CHECK(out.interruptions[0].lost_s == Approx(203 + 30));
  CHECK(out.interruptions[0].lost_s == Approx(out.wasted_s() + out.restarting_s));
}

TEST_CASE("training run: without a spare the job waits for the repair", "[training_run]")
{
  const auto run = [](int64_t spares, double swap_s) {
    Run r("{impl: blocking}", "{impl: fixed, interval: 200s}", 100);
    r.env.cost     = {{IoKind::PfsWrite, 5}, {IoKind::PfsRead, 7}};
    r.env.failures = {{455, 0}, {600, 1}};
    r.env.repair_s = 3000;  // host A back at 3455, host B at 3600
    r.setup.spares = spares;
    r.setup.swap_s = swap_s;
    return r.go();
  };
  // Unlimited spares, no swap time: restarts 30 + 7 s after each failure, from iteration 40
  // (C2 at 405-410): 492, then 637; C3 837-842, C4 1042-1047, the end at 1247.
  const TrainingResult unlimited = run(-1, 0);
  CHECK(unlimited.makespan_s == Approx(1247));
  CHECK(unlimited.host_wait_s == 0);
  CHECK(unlimited.spare_swaps == 2);
  // One spare: 455 + 60 (swap) + 37 = 552. At 600 none is free: host A comes back at 3455 and
  // swaps in by 3515, before B's own repair (3600); restart 3552; C3 3752-3757, C4 3957-3962,
  // the end at 4162.
  const TrainingResult one = run(1, 60);
  CHECK(one.spare_swaps == 2);
  CHECK(one.host_wait_s == Approx(60 + (3515 - 600)));
  CHECK(one.makespan_s == Approx(4162));
  // None: the job waits for A (until the failure at 600 cuts that short), then for B until
  // 3600; restart 3637; the end at 4247.
  const TrainingResult none = run(0, 60);
  CHECK(none.spare_swaps == 0);
  CHECK(none.host_wait_s == Approx(145 + 3000));
  CHECK(none.restarts_cut_short == 1);
  CHECK(none.makespan_s == Approx(4247));
}

TEST_CASE("training run: planned maintenance stops at the next checkpoint", "[training_run]")
{
  Run r("{impl: blocking}", "{impl: fixed, interval: 200s}", 100);
  r.env.cost                  = {{IoKind::PfsWrite, 5}, {IoKind::PfsRead, 7}};
  r.setup.maintenance_every_s = 300;
  r.setup.maintenance_s       = 50;
  const TrainingResult out    = r.go();
  // C1 200-205; C2 405-410, after the stop due at 300: 50 s, then the read, to 467; C3 667-672
  // (due 600): to 729; C4 929-934 (due 900): to 991; the last 20 iterations end at 1191.
  CHECK(out.makespan_s == Approx(1191));
  CHECK(out.maintenance_s == Approx(3 * 57));
  CHECK(out.failures == 0);
  REQUIRE(out.interruptions.size() == 1);
  CHECK(out.interruptions[0].cause.fault_class == FaultClass::Maintenance);
  CHECK(out.interruptions[0].interruptions == 3);
  CHECK(out.makespan_s == Approx(out.useful_s + out.blocking_s + out.maintenance_s));
}
