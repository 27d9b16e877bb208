// Phase kind `train`: training of a large model with checkpoints, failures and restarts on a
// Sunway-like machine (compute nodes -> I/O forwarding nodes -> Lustre-like storage).
//
//   - name: pretrain
//     kind: train
//     nodes: compute                 group of compute nodes (one rank each)
//     io: {forwarding: fwd, storage: oss, metadata: mds, ratio: 512, mapping: static,
//          threads: 16, process_bandwidth: 1GBps, metadata_rate: 50k/s, request: 4GiB}
//     model: {params: 10T, state_bytes_per_param: 14}
//     parallelism: {data: 16, pipeline: 8, tensor: 4, expert: 1}   product = node count
//     shard_imbalance: {embedding_stage: 6.0}
//     iteration: 12s                 compute time per iteration (or a distribution)
//     work: 30d                      useful compute to finish (or iterations: N)
//     checkpoint: {layout: {impl: naive}, policy: {impl: daly}, mode: {impl: blocking},
//                  file_state: {impl: none}}
//     files: {count: 64, size: 1GB, write_rate: 10MBps, append: 0.8, overwrite: 0.2, read_only: 0.5}
//     failures: {impl: exponential, node_mtbf: 5y}
//     restart: {delay: 10min}
//
// At the phase start the checkpoint write and its read-back are simulated through the I/O path
// (sim/train/io_path.hpp), plus the node-local levels when the mode uses them; the measured
// times are the cost of every checkpoint and restart of the run (sim/train/timeline.hpp), so a
// phase running at the same time only affects that first measurement. The phase then lasts the
// training's makespan.
//
// Metrics: checkpoint_bytes, checkpoints, checkpoint_files (files one checkpoint creates at the
// metadata servers), checkpoint_write_s (one full write through the I/O
// path), checkpoint_read_s, checkpoint_blocking_s (training stopped by one checkpoint: the C of
// Young/Daly), local_write_s (multilevel), blocking_s (total), interval_s (compute between
// checkpoints), failures, restarts, wasted_s (compute lost), makespan_s, goodput (useful
// compute / makespan), file_state_bytes, inconsistent_rollbacks, job_mtbf_s.
// CSVs: <phase>_checkpoints.csv (per checkpoint), <phase>_io.csv (bytes through forwarding
// nodes and OSTs, metadata operations, and each tier's utilisation over the measured I/O).
#include "sim/core/distribution.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/run/phase.hpp"
#include "sim/train/interfaces.hpp"
#include "sim/train/io_path.hpp"
#include "sim/train/timeline.hpp"

#include <simgrid/s4u.hpp>

#include <cmath>
#include <memory>

namespace sg4 = simgrid::s4u;

namespace llsim {

namespace {

const ParamTable& io_params()
{
  static const ParamTable t = {
      ParamSpec::text("forwarding", "group of I/O forwarding nodes"),
      ParamSpec::text("storage", "group of storage servers; each of their disks is an OST"),
      ParamSpec::text("metadata", "group of metadata servers"),
      ParamSpec::integer("ratio", "compute nodes per forwarding node (static mapping)").defaults("512").at_least(1),
      ParamSpec::text("mapping", "static (node / ratio) or balanced (writers spread over all forwarding nodes)")
          .defaults("static"),
      ParamSpec::integer("threads", "I/O threads of a forwarding node's server").defaults("16").at_least(1),
      ParamSpec::quantity("process_bandwidth", Dimension::Bandwidth, "what one I/O process can drive")
          .defaults("1GBps")
          .positive(),
      ParamSpec::quantity("metadata_rate", Dimension::Rate, "file creates or opens per second per metadata server")
          .defaults("50k/s")
          .positive(),
      ParamSpec::quantity("request", Dimension::Size,
                          "size of the simulated I/O requests (pipelining granularity; smaller is finer and slower)")
          .defaults("4GiB")
          .positive(),
      ParamSpec::quantity("sample_period", Dimension::Duration, "rows of <phase>_io.csv").defaults("10s").positive(),
      ParamSpec::flag("measure_read", "simulate the read-back too (false only without failures: nothing is read)")
          .defaults("true"),
  };
  return t;
}

const ParamTable& imbalance_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("embedding_stage", Dimension::Number, "pipeline stage 0's share relative to the others")
          .defaults("1")
          .positive(),
  };
  return t;
}

const ParamTable& checkpoint_params()
{
  static const ParamTable t = {
      ParamSpec::section("layout", "{impl: naive | balanced, ...}").defaults("{impl: naive}"),
      ParamSpec::section("policy", "{impl: fixed | every_n | young | daly, ...}").defaults("{impl: daly}"),
      ParamSpec::section("mode", "{impl: blocking | async | multilevel | coordinated, ...}").defaults("{impl: blocking}"),
      ParamSpec::section("file_state", "{impl: none | full_copy | block_log | behavior | versioned}")
          .defaults("{impl: none}"),
  };
  return t;
}

const ParamTable& files_params()
{
  static const ParamTable t = {
      ParamSpec::integer("count", "files the job writes besides checkpoints").defaults("0").at_least(0),
      ParamSpec::quantity("size", Dimension::Size, "size of one file").defaults("0B").at_least(0),
      ParamSpec::quantity("write_rate", Dimension::Bandwidth, "bytes written per second of training").defaults("0").at_least(0),
      ParamSpec::quantity("append", Dimension::Number, "share of written bytes appended").defaults("1").at_least(0).at_most(1),
      ParamSpec::quantity("overwrite", Dimension::Number, "share of written bytes overwriting").defaults("0").at_least(0).at_most(1),
      ParamSpec::quantity("read_only", Dimension::Number, "share of files never written").defaults("0").at_least(0).at_most(1),
      ParamSpec::quantity("block", Dimension::Size, "file system block").defaults("4KiB").positive(),
  };
  return t;
}

const ParamTable& restart_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("delay", Dimension::Duration, "from a failure to the restarted job reading its checkpoint")
          .defaults("10min")
          .at_least(0),
  };
  return t;
}

const ParamTable kTrainParams = {
    ParamSpec::text("nodes", "group of compute nodes, one rank each"),
    ParamSpec::section("io", "the I/O path").with_fields(io_params()),
    ParamSpec::section("model", "{params, state_bytes_per_param}").with_fields(model_params()),
    ParamSpec::section("parallelism", "{data, pipeline, tensor, expert}; their product is the node count")
        .with_fields(parallelism_params()),
    ParamSpec::section("shard_imbalance", "{embedding_stage}").defaults("{}").with_fields(imbalance_params()),
    ParamSpec::distribution("iteration", Dimension::Duration, "compute time of one iteration").positive(),
    ParamSpec::quantity("work", Dimension::Duration, "useful compute to finish (or iterations)").positive().may_be_absent(),
    ParamSpec::integer("iterations", "iterations to finish (or work)").at_least(1).may_be_absent(),
    ParamSpec::section("checkpoint", "{layout, policy, mode, file_state}").defaults("{}").with_fields(checkpoint_params()),
    ParamSpec::section("files", "files written between checkpoints").defaults("{}").with_fields(files_params()),
    ParamSpec::section("failures", "{impl: none | exponential | weibull | trace, ...}").defaults("{impl: none}"),
    ParamSpec::section("restart", "{delay}").defaults("{}").with_fields(restart_params()),
};

const GroupSpec& group_with_disks(const PlatformSpec& platform, const Params& p, const std::string& key)
{
  const GroupSpec& g = platform.group_param(p, key);
  if (!g.disks)
    p.fail(key, "group '" + g.name + "' has no 'disks' (its disks are the OSTs)");
  return g;
}

class TrainPhase : public Phase {
 public:
  TrainPhase(const Params& p, const PhaseLoadContext& c)
      : seed_(c.seed), name_(c.phase_name), nodes_(c.platform.group_param(p, "nodes"))
  {
    const Params io = p.section("io", io_params());
    forwarding_     = c.platform.group_param(io, "forwarding").name;
    storage_        = group_with_disks(c.platform, io, "storage").name;
    metadata_       = c.platform.group_param(io, "metadata").name;
    io_system_.ratio = io.integer("ratio");
    const std::string mapping = io.text("mapping");
    if (mapping != "static" && mapping != "balanced")
      io.fail("mapping", "expected static or balanced, got '" + mapping + "'");
    io_system_.balanced_mapping = mapping == "balanced";
    io_system_.process_Bps      = io.quantity("process_bandwidth");
    io_system_.nodes            = nodes_.count;
    io_system_.forwarding       = static_cast<size_t>(c.platform.find(forwarding_)->count);
    const GroupSpec& storage    = *c.platform.find(storage_);
    io_system_.osts             = static_cast<size_t>(storage.count * storage.disks->count);
    threads_                    = static_cast<size_t>(io.integer("threads"));
    metadata_rate_              = io.quantity("metadata_rate");
    sample_period_s_            = io.quantity("sample_period");
    request_B_                  = io.quantity("request");
    measure_read_               = io.flag("measure_read");

    const Params model = p.section("model", model_params());
    model_.params          = model.quantity("params");
    model_.bytes_per_param = model.quantity("state_bytes_per_param");
    model_.embedding_stage = p.section("shard_imbalance", imbalance_params()).quantity("embedding_stage");
    const Params par = p.section("parallelism", parallelism_params());
    parallelism_     = {par.integer("data"), par.integer("pipeline"), par.integer("tensor"), par.integer("expert")};
    if (parallelism_.ranks() != nodes_.count)
      par.ref().fail("data x pipeline x tensor x expert = " + std::to_string(parallelism_.ranks()) +
                     ", but group '" + nodes_.name + "' has " + std::to_string(nodes_.count) + " nodes (one rank each)");

    iteration_ = p.distribution("iteration");
    if (p.has("work") == p.has("iterations"))
      p.ref().fail("give exactly one of 'work' (useful compute time) or 'iterations'");
    iterations_ = p.has("iterations") ? static_cast<double>(p.integer("iterations"))
                                      : std::ceil(p.quantity("work") / iteration_->mean());

    const Params ckpt = p.section("checkpoint", checkpoint_params());
    layout_           = Registry<CheckpointLayout>::create(ckpt.raw("layout"), {});
    policy_           = Registry<CheckpointPolicy>::create(ckpt.raw("policy"), {});
    const double node_state = shard_bytes(0, model_, parallelism_);
    mode_       = Registry<CheckpointMode>::create(ckpt.raw("mode"), {c.platform, nodes_, node_state});
    file_state_ = Registry<FileStatePolicy>::create(ckpt.raw("file_state"), {});

    const Params f = p.section("files", files_params());
    files_ = {f.integer("count"), f.quantity("size"), f.quantity("write_rate"), f.quantity("append"),
              f.quantity("overwrite"), f.quantity("read_only"), f.quantity("block")};
    if (files_.append_share + files_.overwrite_share > 1 + 1e-9)
      f.fail("overwrite", "append + overwrite shares exceed 1");
    failures_        = Registry<FailureModel>::create(p.raw("failures"), {nodes_.count});
    if (!measure_read_ && std::isfinite(failures_->job_mtbf_s()))
      io.fail("measure_read", "a run with failures reads checkpoints back: the read must be measured");
    restart_delay_s_ = p.section("restart", restart_params()).quantity("delay");
    plan_            = layout_->plan(model_, parallelism_, io_system_);
  }

  void run(PhaseRuntime& runtime) override
  {
    const double start = sg4::Engine::get_clock();
    IoPath path{runtime.platform, runtime.platform.hosts(nodes_.name), runtime.platform.hosts(forwarding_),
                runtime.platform.hosts(metadata_), {}, {}, threads_, request_B_, metadata_rate_, runtime.label};
    for (sg4::Host* server : runtime.platform.hosts(storage_))
      for (const HostDisk& d : runtime.platform.disks(server)) {
        path.osts.push_back(d);
        path.ost_server.push_back(server);
      }
    tiers_ = std::make_unique<TimeSeries>(std::vector<std::string>{"forwarding_bytes", "ost_bytes", "metadata_ops"},
                                          sample_period_s_);
    tiers_->add(0, 0, start);
    costs_.nodes       = nodes_.count;
    costs_.pfs_write_s = run_io_plan(plan_, IoDirection::Write, path, *tiers_);
    costs_.pfs_read_s  = measure_read_ ? run_io_plan(plan_, IoDirection::Read, path, *tiers_) : NAN;
    if (mode_->needs_local_level()) {
      costs_.local_write_s = run_local_io(plan_, IoDirection::Write, path);
      costs_.local_read_s  = run_local_io(plan_, IoDirection::Read, path);
      costs_.partner_s     = run_partner_copy(plan_, path);
    }
    tiers_->finish(sg4::Engine::get_clock());
    capacity_ = tier_capacity(runtime.platform);

    blocking_cost_s_ = mode_->blocking_s(costs_, 1);
    interval_s_      = policy_->interval_s(blocking_cost_s_, failures_->job_mtbf_s(), iteration_->mean());
    TimelineSetup setup{iterations_,  iteration_, interval_s_,      mode_.get(), costs_, plan_.total_B(),
                        file_state_.get(), files_, failures_.get(), restart_delay_s_};
    Rng rng   = Rng::stream(seed_, "phase." + name_ + ".training");
    result_   = run_timeline(setup, rng);
    start_s_  = start;
    if (sg4::Engine::get_clock() < start + result_.makespan_s)
      sg4::this_actor::sleep_until(start + result_.makespan_s);
  }

  Metrics metrics() const override
  {
    return {{"checkpoint_bytes", result_.checkpoint_bytes},
            {"checkpoints", static_cast<double>(result_.checkpoints)},
            {"checkpoint_files", static_cast<double>(plan_.files())},
            {"checkpoint_write_s", costs_.pfs_write_s},
            {"checkpoint_read_s", costs_.pfs_read_s},
            {"checkpoint_blocking_s", blocking_cost_s_},
            {"local_write_s", costs_.local_write_s},
            {"blocking_s", result_.blocking_s},
            {"interval_s", interval_s_},
            {"failures", static_cast<double>(result_.failures)},
            {"restarts", static_cast<double>(result_.restarts)},
            {"wasted_s", result_.wasted_s()},
            {"makespan_s", result_.makespan_s},
            {"goodput", result_.makespan_s > 0 ? result_.useful_s / result_.makespan_s : 0},
            {"file_state_bytes", result_.file_state_bytes},
            {"inconsistent_rollbacks", static_cast<double>(result_.inconsistent_rollbacks)},
            {"job_mtbf_s", failures_->job_mtbf_s()}};
  }

  std::vector<OutputTable> tables() const override
  {
    if (!tiers_)
      return {};
    CsvWriter checkpoints;
    checkpoints.header = {"checkpoint", "end_s", "iteration", "blocking_s", "bytes", "durable_s"};
    for (const auto& r : result_.records)
      checkpoints.add_numbers({static_cast<double>(r.index), start_s_ + r.end_s, r.iteration, r.blocking_s, r.bytes,
                               r.durable_s < 0 ? -1 : start_s_ + r.durable_s});
    return {{"checkpoints", checkpoints}, {"io", with_utilisation(tiers_->table())}};
  }

 private:
  struct TierCapacity {
    double forwarding_Bps, ost_Bps, metadata_ops;
  };

  TierCapacity tier_capacity(const Platform& platform) const
  {
    const GroupSpec& fwd     = *platform.spec().find(forwarding_);
    const GroupSpec& storage = *platform.spec().find(storage_);
    const GroupSpec& mds     = *platform.spec().find(metadata_);
    return {static_cast<double>(fwd.count) * fwd.nic_Bps,
            static_cast<double>(storage.count * storage.disks->count) * storage.disks->write_Bps,
            static_cast<double>(mds.count) * metadata_rate_};
  }

  // Adds each tier's utilisation over the interval ending at each row (writes: OST write
  // bandwidth as capacity).
  CsvWriter with_utilisation(const CsvWriter& cumulative) const
  {
    CsvWriter out;
    out.header = cumulative.header;
    for (const char* c : {"forwarding_util", "ost_util", "metadata_util"})
      out.header.push_back(c);
    const double capacity[] = {capacity_.forwarding_Bps, capacity_.ost_Bps, capacity_.metadata_ops};
    std::vector<double> previous(4, 0);
    for (const auto& row : cumulative.rows) {
      std::vector<double> values;
      for (const auto& cell : row)
        values.push_back(std::stod(cell));
      std::vector<double> line = values;
      const double dt          = values[0] - previous[0];
      for (size_t k = 0; k < 3; ++k)
        line.push_back(dt > 0 ? std::min(1.0, (values[k + 1] - previous[k + 1]) / dt / capacity[k]) : 0);
      out.add_numbers(line);
      previous = values;
    }
    return out;
  }

  uint64_t seed_;
  std::string name_;
  const GroupSpec& nodes_;
  std::string forwarding_, storage_, metadata_;
  IoSystem io_system_;
  size_t threads_;
  double metadata_rate_, sample_period_s_, request_B_;
  bool measure_read_;
  ModelState model_;
  Parallelism parallelism_;
  std::shared_ptr<const Distribution> iteration_;
  double iterations_;
  std::unique_ptr<CheckpointLayout> layout_;
  std::unique_ptr<CheckpointPolicy> policy_;
  std::unique_ptr<CheckpointMode> mode_;
  std::unique_ptr<FileStatePolicy> file_state_;
  FileWorkload files_;
  std::unique_ptr<FailureModel> failures_;
  double restart_delay_s_;
  IoPlan plan_;
  std::unique_ptr<TimeSeries> tiers_;  // the I/O tiers during the measured I/O
  TierCapacity capacity_{};
  CheckpointCosts costs_;
  double blocking_cost_s_ = 0, interval_s_ = 0, start_s_ = 0;
  TimelineResult result_;
};

}  // namespace

LLSIM_REGISTER(Phase, "train", TrainPhase, "training with checkpoints, failures and restarts on a Sunway-like machine",
               kTrainParams);

}  // namespace llsim
