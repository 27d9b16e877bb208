#include "sim/core/registry.hpp"
#include "sim/train/layout_levers.hpp"
#include "sim/train/timeline.hpp"
#include "sim/train/young_daly.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace llsim;

namespace {

// Failures at fixed times.
class FixedFailures : public FailureModel {
 public:
  explicit FixedFailures(std::vector<double> times) : times_(std::move(times)) {}
  Failure next_failure(double after, Rng&) override
  {
    for (double t : times_)
      if (t > after)
        return {t, 0};
    return {};
  }
  double job_mtbf_s() const override { return 1e9; }

 private:
  std::vector<double> times_;
};

template <class I>
std::unique_ptr<I> make(const std::string& yaml, const typename I::Context& c)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "t.yaml";
  return Registry<I>::create(YamlRef(YAML::Load(yaml), "x", source), c);
}

struct Setup {
  std::unique_ptr<CheckpointMode> mode;
  std::unique_ptr<FileStatePolicy> file_state = make<FileStatePolicy>("{impl: none}", {});
  FixedFailures failures;
  TimelineSetup setup;
  Setup(std::unique_ptr<CheckpointMode> m, std::vector<double> failure_times, double iterations, double interval)
      : mode(std::move(m)), failures(std::move(failure_times))
  {
    setup.iterations      = iterations;
    setup.iteration       = std::shared_ptr<const Distribution>(
        make_distribution(YamlRef(YAML::Load("10s"), "iteration", std::make_shared<SourceInfo>()), Dimension::Duration));
    setup.interval_s      = interval;
    setup.mode            = mode.get();
    setup.file_state      = file_state.get();
    setup.failures        = &failures;
    setup.restart_delay_s = 30;
    setup.checkpoint_B    = 1e12;
  }
};

PlatformSpec platform()
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "p.yaml";
  return parse_platform(Params(YamlRef(YAML::Load("groups: {c: {count: 4, memory: 64GB, nic: {bandwidth: 1GBps}}}\n"
                                                  "backbone: {bandwidth: 1GBps}"),
                                       "platform", source),
                               platform_params()));
}

}  // namespace

TEST_CASE("young and daly intervals", "[train]")
{
  CHECK(young_interval(100, 10000) == Approx(std::sqrt(2e6)));
  CHECK(daly_interval(100, 10000) == Approx(std::sqrt(2e6) * (1 + std::sqrt(0.005) / 3 + 0.005 / 9) - 100));
  CHECK(daly_interval(100, 10000) == Approx(1348.33).epsilon(1e-5));
  CHECK(daly_interval(300, 100) == 100);  // C >= 2M: T = M
}

TEST_CASE("timeline: blocking checkpoints and a failure, by hand", "[train]")
{
  const PlatformSpec p = platform();
  Setup s(make<CheckpointMode>("{impl: blocking}", {p, *p.find("c"), 1e9}), {455}, 100, 200);
  s.setup.costs.pfs_write_s = 5;
  s.setup.costs.pfs_read_s  = 7;
  Rng rng(1);
  const TimelineResult r = run_timeline(s.setup, rng);
  // 0-200 compute, 200-205 C1 (it 20), 205-405, 405-410 C2 (it 40), failure at 455 after 4 more
  // iterations and 5 s: 45 s lost; restart 455 + 30 + 7 = 492 from it 40; then 20 iterations,
  // C3 692-697, 20 iterations, C4 897-902, the last 20 iterations end at 1102.
  CHECK(r.makespan_s == Approx(1102));
  CHECK(r.checkpoints == 4);
  CHECK(r.failures == 1);
  CHECK(r.restarts == 1);
  CHECK(r.wasted_s() == Approx(45));
  CHECK(r.useful_s == Approx(1000));
  CHECK(r.blocking_s == Approx(20));
  CHECK(r.checkpoint_bytes == Approx(4e12));
  REQUIRE(r.records.size() == 4);
  CHECK(r.records[2].end_s == Approx(697));
  CHECK(r.records[2].iteration == 60);
}

TEST_CASE("timeline: async persist lost to a failure falls back to the previous one", "[train]")
{
  const PlatformSpec p = platform();
  // A node holds 10 GB; snapshot at 10 GB/s = 1 s blocking; persist 50 s in the background.
  Setup s(make<CheckpointMode>("{impl: async, snapshot_bandwidth: 10GBps}", {p, *p.find("c"), 10e9}), {230}, 50, 100);
  s.setup.costs.pfs_write_s = 50;
  s.setup.costs.pfs_read_s  = 40;
  Rng rng(1);
  const TimelineResult r = run_timeline(s.setup, rng);
  // C1 100-101 (persisted at 151), C2 201-202 (persist until 252), failure at 230: C2 is lost,
  // restart from C1 (it 10): 128 s of compute lost, resume at 230 + 30 + 40 = 300; then
  // checkpoints at 400, 501, 602 (1 s each), done at 703.
  CHECK(r.makespan_s == Approx(703));
  CHECK(r.wasted_s() == Approx(128));
  CHECK(r.checkpoints == 5);
  CHECK(r.blocking_s == Approx(5));
}

TEST_CASE("timeline: the next checkpoint waits for the previous persist", "[train]")
{
  const PlatformSpec p = platform();
  Setup s(make<CheckpointMode>("{impl: async, snapshot_bandwidth: 10GBps}", {p, *p.find("c"), 10e9}), {}, 30, 100);
  s.setup.costs.pfs_write_s = 150;  // longer than the 100 s between checkpoints
  Rng rng(1);
  const TimelineResult r = run_timeline(s.setup, rng);
  // C1 100-101, persist until 251; C2 due at 201 waits until 251, then 251-252; persist until 402.
  // The last 10 iterations end at 352 (no checkpoint after the end).
  CHECK(r.makespan_s == Approx(352));
  CHECK(r.blocking_s == Approx(1 + 50 + 1));
}

TEST_CASE("timeline: multilevel restarts from the partner copy, single from the flush", "[train]")
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "p.yaml";
  const PlatformSpec p = parse_platform(
      Params(YamlRef(YAML::Load("groups: {c: {count: 4, nic: {bandwidth: 1GBps}, disks: {read: 1GBps, write: 1GBps, "
                                "capacity: 1TB}}}\nbackbone: {bandwidth: 1GBps}"),
                     "platform", source),
             platform_params()));
  for (const char* level : {"partner", "single"}) {
    Setup s(make<CheckpointMode>(std::string("{impl: multilevel, level: ") + level + ", flush_every: 3}",
                                 {p, *p.find("c"), 1e9}),
            {505}, 60, 100);
    s.setup.costs.local_write_s = 2;
    s.setup.costs.partner_s     = 3;
    s.setup.costs.local_read_s  = 4;
    s.setup.costs.pfs_write_s   = 20;
    s.setup.costs.pfs_read_s    = 50;
    Rng rng(1);
    const TimelineResult r = run_timeline(s.setup, rng);
    const bool partner     = std::string(level) == "partner";
    const double block     = partner ? 5 : 2;
    // Checkpoint k ends at 100k + kb (b = blocking); C3 is flushed, durable 20 s after it ends.
    CHECK(r.records[2].durable_s == Approx(300 + 3 * block + 20));
    CHECK(r.records[0].durable_s == -1);
    // The failure at 505 comes during the iterations after C4 (ended 400 + 4b).
    const double lost = 505 - (400 + 4 * block);
    if (partner) {
      // Restart from C4 (it 40) after 30 s and the partner rebuild (4 + 3 s): 542; then 10
      // iterations, C5 (5 s), the last 10 iterations.
      CHECK(r.wasted_s() == Approx(lost));
      CHECK(r.makespan_s == Approx(542 + 100 + 5 + 100));
    } else {
      // The node's local copy is gone: restart from the flushed C3 (it 30), reading 50 s; then
      // 10 iterations and C4, 10 and C5, the last 10 (C6 due at it 60 is the end).
      CHECK(r.wasted_s() == Approx(lost + 100));
      CHECK(r.makespan_s == Approx(505 + 30 + 50 + 3 * 100 + 2 * block));
    }
  }
}

TEST_CASE("layout: naive writes whole shards from replica 0, balanced spreads them", "[train]")
{
  const Parallelism par{4, 2, 2, 1};  // 16 ranks
  ModelState model;
  model.params          = 1e9;
  model.bytes_per_param = 10;  // 10 GB
  model.embedding_stage = 3;   // stage 0: 3/4 of the state
  IoSystem io;
  io.nodes       = 16;
  io.forwarding  = 2;
  io.osts        = 8;
  io.ratio       = 8;
  io.process_Bps = 1e9;
  const IoPlan naive = plan_checkpoint(LayoutLevers{}, model, par, io);
  REQUIRE(naive.writers.size() == 4);              // replica 0 of 2 stages x 2 tensor ranks
  CHECK(naive.writers[0].node == 0);
  CHECK(naive.writers[0].bytes == Approx(3.75e9)); // stage 0: 7.5 GB over 2 tensor ranks
  CHECK(naive.writers[2].node == 8);               // stage 1 starts at rank 2 * 4 * 2 = 8
  CHECK(naive.writers[2].pieces[0].forwarding == 1);
  CHECK(naive.total_B() == Approx(1e10));
  CHECK(naive.files() == 4);
  const IoPlan balanced = plan_checkpoint(LayoutLevers{true, 2, true, 4}, model, par, io);
  REQUIRE(balanced.writers.size() == 16);
  CHECK(balanced.writers[0].bytes == Approx(3.75e9 / 4));
  CHECK(balanced.writers[0].rate_cap_Bps == 2e9);
  CHECK(balanced.total_B() == Approx(1e10));
  CHECK(balanced.files() == 32);
  // One piece per writer covers the 8 OSTs twice; pieces go round-robin over OSTs and forwarders.
  CHECK(balanced.writers[0].pieces.size() == 1);
  CHECK(balanced.writers[9].pieces[0].ost == 1);
  CHECK(balanced.writers[9].pieces[0].forwarding == 1);
  // Few writers with split: each file's stripes become pieces over distinct OSTs.
  const IoPlan split_only = plan_checkpoint(LayoutLevers{false, 1, true, 0}, model, par, io);
  CHECK(split_only.writers[0].pieces.size() == 4);  // ceil(2 * 8 OSTs / 4 writers)
}
