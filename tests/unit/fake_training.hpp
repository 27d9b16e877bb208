// A training environment of fixed costs and failures at given times, and a run set up in it,
// for the training run's unit tests (training_run_test.cpp, training_tiers_test.cpp).
#pragma once
#include "sim/core/registry.hpp"
#include "sim/train/training_run.hpp"
#include "world.hpp"

#include <limits>
#include <map>
#include <set>

namespace llsim::test {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Fixed costs per kind of I/O (a partner copy costs its share of the full copy) and failures at
// given times, each taking one writer's node-local copy (entries of one time: one failure of
// several nodes).
class FakeEnvironment : public TrainingEnvironment {
 public:
  std::map<IoKind, double> cost;
  std::vector<std::pair<double, int64_t>> failures;  // time, writer
  std::vector<std::set<size_t>> local_reads;         // the lost writers each LocalRead was given
  std::map<size_t, FaultCause> causes;               // of the failure of this index (default: host)
  double repair_s = 0;                               // a failed node is back this long after

  double now() const override { return t_; }
  bool advance_until(double until) override
  {
    if (next_ < failures.size() && failures[next_].first < until) {
      t_         = failures[next_].first;
      failed_at_ = t_;
      writers_.clear();
      for (; next_ < failures.size() && failures[next_].first == t_; ++next_)
        if (failures[next_].second >= 0)
          writers_.push_back(static_cast<size_t>(failures[next_].second));
      nodes_ = writers_.empty() ? 1 : writers_.size();
      return false;
    }
    t_ = until;
    return true;
  }
  bool io(IoKind kind, double share, double scale, const std::set<size_t>& lost) override
  {
    if (kind == IoKind::LocalRead)
      local_reads.push_back(lost);
    return advance_until(t_ + cost.at(kind) * scale * (kind == IoKind::PartnerCopy ? share : 1));
  }
  void start_background(double scale) override { background_ = t_ + cost.at(IoKind::PfsWrite) * scale; }
  double background_end() override { return background_; }
  bool wait_background() override { return advance_until(background_); }
  void drop_background() override { background_ = -kInf; }
  std::vector<size_t> failed_writers() const override { return writers_; }
  FaultCause failure_cause() const override
  {
    const auto it = causes.find(next_ - 1);
    return it == causes.end() ? FaultCause{"host", FaultClass::Host} : it->second;
  }
  std::vector<double> failed_nodes_up_s() const override { return std::vector<double>(nodes_, failed_at_ + repair_s); }
  bool reads_data() const override { return false; }
  bool wait_for_batch(int64_t) override { return true; }
  void batch_done(int64_t) override {}
  void stop_data() override {}
  int64_t replays() const override { return 0; }
  double measured_s(IoKind kind) override { return cost.count(kind) ? cost.at(kind) : -1; }
  void report(int64_t, int64_t) override {}

 private:
  double t_    = 0;
  size_t next_ = 0;
  std::vector<size_t> writers_;
  size_t nodes_      = 1;
  double background_ = -kInf;
  double failed_at_  = 0;
};

struct Run {
  test::World world;
  std::unique_ptr<CheckpointPolicy> policy;
  std::unique_ptr<CheckpointMode> mode;
  std::unique_ptr<FileStatePolicy> file_state;
  TrainingSetup setup;
  FakeEnvironment env;

  Run(const std::string& mode_yaml, const std::string& policy_yaml, double iterations, double node_state_B = 1e9)
      : world("groups: {c: {count: 4, memory: 64GB, nic: {bandwidth: 1GBps}, disks: {read: 1GBps, write: 1GBps, "
              "capacity: 1TB}}}\nbackbone: {bandwidth: 1GBps}")
  {
    policy              = Registry<CheckpointPolicy>::create(world.yaml(policy_yaml), {});
    mode                = Registry<CheckpointMode>::create(world.yaml(mode_yaml),
                                                           {*world.platform, *world.platform->find("c"), node_state_B});
    file_state          = Registry<FileStatePolicy>::create(world.yaml("{impl: none}"), {});
    setup.iterations    = iterations;
    setup.iteration     = make_distribution(world.yaml("10s"), Dimension::Duration);
    setup.policy        = policy.get();
    setup.mode          = mode.get();
    setup.file_state    = file_state.get();
    setup.restart_delay = make_distribution(world.yaml("30s"), Dimension::Duration);
    setup.checkpoint_B  = 1e12;
    setup.writers       = 4;
    setup.job_mtbf_s    = 1e9;
  }
  TrainingResult go()
  {
    Rng rng(1), restart_rng(2);
    return run_training(setup, env, rng, restart_rng);
  }
};

// Node-local write, partner copy and read, and the flush and read of the parallel file system.
const std::map<IoKind, double> kMultilevelCosts = {{IoKind::LocalWrite, 2},
                                                   {IoKind::PartnerCopy, 3},
                                                   {IoKind::LocalRead, 4},
                                                   {IoKind::PfsWrite, 20},
                                                   {IoKind::PfsRead, 50}};

}  // namespace llsim::test
