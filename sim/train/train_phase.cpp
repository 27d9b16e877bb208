// Phase kind `train`: training of a large model with checkpoints, failures and restarts, on a
// Sunway-like machine (compute nodes -> I/O forwarding nodes -> Lustre-like storage) or a GPU
// cluster (hosts of several GPUs, one rank each).
//
//   - name: pretrain
//     kind: train
//     nodes: compute                 group of compute nodes
//     ranks_per_node: 0              0: the group's GPU count (1 without GPUs; job_shape.hpp)
//     io: {storage: pfs, forwarding: fwd, local: nvme, process_bandwidth: 1GBps, request: 4GiB,
//          read_ahead: 4}
//     model: {params: 10T, state_bytes_per_param: 14, weight_bytes_per_param: 2, sharding: none}
//     parallelism: {data: 16, pipeline: 8, tensor: 4, expert: 1}   product = nodes x ranks_per_node
//     shard_imbalance: {embedding_stage: 6.0}
//     iteration: 12s                 compute time per iteration (or a distribution)
//     work: 30d                      useful compute to finish (or iterations: N)
//     resume: false                  start by reading a checkpoint (a job resumed from a previous one)
//     checkpoint: {layout: {impl: naive}, policy: {impl: daly}, mode: {impl: blocking},
//                  file_state: {impl: none}, io_replay: auto, keep: 2, path: pretrain/checkpoint}
//     files: {count: 64, size: 1GB, write_rate: 10MBps, append: 0.8, read_only: 0.5}
//     restart: {delay: 10min, give_up_after: 1000}   delay: a duration or a distribution, drawn
//                                                    at each restart
//
// The job runs inside the simulation (sim/train/training_run.hpp): compute takes simulated time;
// each checkpoint, restart read and background write goes through the services named in `io`
// (storage service `storage`, optionally behind forwarding service `forwarding`; node-local
// levels on storage service `local`, whose servers are the compute nodes), or is charged the
// cost measured for the same operation (`io_replay`, sim/train/sim_training_environment.hpp).
// Failures are the compute nodes' outages (the scenario's `faults:` entry for the group): the
// job fails when one of its nodes does, and restarts on a spare after `restart.delay`. The
// layout decides who writes which bytes to which targets (sim/train/layout_levers.hpp).
//
// Metrics: the declared table kTrainMetrics below (`llsim models` lists it).
// CSVs: <phase>_checkpoints.csv (per checkpoint: start, end, iteration, blocking, bytes, when it
// became durable on the parallel file system, whether its I/O went through the services),
// <phase>_failures.csv (per failure of the job: time, node).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml
#include "sim/core/distribution.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/phase/phase.hpp"
#include "sim/phase/work_units.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/forwarding.hpp"
#include "sim/train/checkpoint_layout.hpp"
#include "sim/train/checkpoint_mode.hpp"
#include "sim/train/checkpoint_policy.hpp"
#include "sim/train/data_settings.hpp"
#include "sim/train/file_state.hpp"
#include "sim/train/interruption_settings.hpp"
#include "sim/train/job_shape.hpp"
#include "sim/train/job_time.hpp"
#include "sim/train/sim_training_environment.hpp"
#include "sim/train/training_run.hpp"
#include "sim/train/training_work.hpp"

#include <cmath>
#include <memory>

namespace llsim {

namespace {

const ParamTable& io_params()
{
  static const ParamTable t = {
      ParamSpec::text("storage", "storage service the checkpoints go to (a parallel file system)"),
      ParamSpec::text("forwarding", "forwarding service between the nodes and the storage (absent: none)")
          .may_be_absent(),
      ParamSpec::text("local",
                      "storage service of the nodes' own disks, for node-local checkpoint levels (absent: none)")
          .may_be_absent(),
      ParamSpec::quantity("process_bandwidth", Dimension::Bandwidth, "what one I/O process can drive (assumption)")
          .defaults("1GBps")
          .positive(),
      ParamSpec::quantity("request", Dimension::Size,
                          "size of the simulated I/O requests (pipelining granularity; smaller is finer and slower)")
          .defaults("4GiB")
          .positive(),
      ParamSpec::integer("read_ahead", "read requests a reading stream keeps in flight").defaults("4").at_least(1),
  };
  return t;
}

const ParamTable& checkpoint_params()
{
  static const ParamTable t = {
      ParamSpec::choice<CheckpointLayout>("layout", "who writes which bytes where {impl, ...}")
          .defaults("{impl: naive}"),
      ParamSpec::choice<CheckpointPolicy>("policy", "when to checkpoint {impl, ...}").defaults("{impl: daly}"),
      ParamSpec::choice<CheckpointMode>("mode",
                                        "how a checkpoint stops training and where it becomes durable {impl, ...}")
          .defaults("{impl: blocking}"),
      ParamSpec::choice<FileStatePolicy>("file_state", "what is saved of the files the job writes {impl}")
          .defaults("{impl: none}"),
      ParamSpec::one_of("io_replay", {"auto", "always", "once"},
                        "auto (through the services when another phase runs or the cost is unknown, "
                        "else the cost measured alone), always, or once (per kind of I/O)")
          .defaults("auto"),
      ParamSpec::integer("keep", "checkpoints kept on the parallel file system (older ones are removed)")
          .defaults("2")
          .at_least(1),
      ParamSpec::text("path", "name of the newest complete checkpoint on the parallel file system, for a later "
                              "phase to read (a serve phase's weights); default: <phase>/checkpoint")
          .may_be_absent(),
  };
  return t;
}

const ParamTable& files_params()
{
  static const ParamTable t = {
      ParamSpec::integer("count", "files the job writes besides checkpoints").defaults("0").at_least(0),
      ParamSpec::quantity("size", Dimension::Size, "size of one file").defaults("0B").at_least(0),
      ParamSpec::quantity("write_rate", Dimension::Bandwidth, "bytes written per second of training")
          .defaults("0")
          .at_least(0),
      ParamSpec::quantity("append", Dimension::Number, "share of written bytes appended; the rest overwrites")
          .defaults("1")
          .at_least(0)
          .at_most(1),
      ParamSpec::quantity("read_only", Dimension::Number, "share of files never written")
          .defaults("0")
          .at_least(0)
          .at_most(1),
      ParamSpec::quantity("block", Dimension::Size, "file system block").defaults("4KiB").positive(),
  };
  return t;
}

const ParamTable kTrainParams = {
    ParamSpec::text("nodes", "group of compute nodes"),
    ranks_per_node_param(),
    ParamSpec::section("io", "the services checkpoints go through").with_fields(io_params()),
    ParamSpec::section("model", "{params, state_bytes_per_param}").with_fields(model_params()),
    ParamSpec::section("parallelism", "{data, pipeline, tensor, expert}; their product is the node count")
        .with_fields(parallelism_params()),
    ParamSpec::section("shard_imbalance", "{embedding_stage}").defaults("{}").with_fields(imbalance_params()),
    ParamSpec::distribution("iteration", Dimension::Duration, "compute time of one iteration").positive(),
    ParamSpec::quantity("work", Dimension::Duration, "useful compute to finish (or iterations)")
        .positive()
        .may_be_absent(),
    ParamSpec::integer("iterations", "iterations to finish (or work)").at_least(1).may_be_absent(),
    ParamSpec::flag("resume", "start by reading a checkpoint from the storage (a job resumed)").defaults("false"),
    ParamSpec::section("checkpoint", "{layout, policy, mode, file_state, io_replay, keep}")
        .defaults("{}")
        .with_fields(checkpoint_params()),
    ParamSpec::section("files", "files written between checkpoints").defaults("{}").with_fields(files_params()),
    ParamSpec::section("data", "{storage, dataset, tokens_per_iteration, ...}: the batches it reads (absent: none)")
        .may_be_absent()
        .with_fields(data_params()),
    ParamSpec::section("maintenance", "{every, duration}: planned stops")
        .defaults("{}")
        .with_fields(maintenance_params()),
    ParamSpec::section("restart", "{delay, give_up_after, spares, swap_time}")
        .defaults("{}")
        .with_fields(restart_params()),
};

IoReplay parse_replay(const Params& p)
{
  const std::string r = p.text("io_replay");
  if (r == "auto")
    return IoReplay::Auto;
  if (r == "always")
    return IoReplay::Always;
  return IoReplay::Once;
}

class TrainPhase : public Phase {
 public:
  TrainPhase(const Params& p, const PhaseLoadContext& c)
      : seed_(c.seed)
      , name_(c.phase_name)
      , nodes_(c.platform.group_param(p, "nodes"))
  {
    c.claims.push_back({nodes_.name, p.raw("nodes")});
    const Params io = p.section("io", io_params());
    pfs_            = &c.services.get<StorageService>(io, "storage");
    if (io.has("forwarding")) {
      forwarding_ = &c.services.get<ForwardingService>(io, "forwarding");
      if (&forwarding_->backend() != pfs_)
        io.fail("forwarding", "forwarding service '" + forwarding_->name() + "' stands in front of '" +
                                  forwarding_->backend().name() + "', not of the checkpoint storage '" + pfs_->name() +
                                  "'");
      if (const std::string why = forwarding_->cannot_serve(nodes_.count); !why.empty())
        io.fail("forwarding", why);
    }
    if (io.has("local")) {
      local_ = &c.services.get<StorageService>(io, "local");
      if (&local_->servers() != &nodes_)
        io.fail("local", "node-local storage service '" + local_->name() + "' must have the compute nodes ('" +
                             nodes_.name + "') as its servers, not '" + local_->servers().name + "'");
    }
    io_system_.nodes       = nodes_.count;
    io_system_.targets     = pfs_->targets();
    io_system_.stripe_B    = pfs_->stripe_size();
    io_system_.process_Bps = io.quantity("process_bandwidth");
    request_B_             = io.quantity("request");
    read_ahead_            = static_cast<size_t>(io.integer("read_ahead"));

    const JobShape job        = read_job_shape(p, nodes_);
    model_                    = job.model;
    parallelism_              = job.parallelism;
    io_system_.ranks_per_node = job.ranks_per_node;

    setup_.iteration  = p.distribution("iteration");
    setup_.iterations = read_training_iterations(p, *setup_.iteration);
    setup_.resume     = p.flag("resume");

    const Params ckpt = p.section("checkpoint", checkpoint_params());
    layout_           = Registry<CheckpointLayout>::create(ckpt.raw("layout"), {});
    policy_           = Registry<CheckpointPolicy>::create(ckpt.raw("policy"), {});
    mode_             = Registry<CheckpointMode>::create(
                    ckpt.raw("mode"), {c.platform, nodes_, node_state_B(model_, parallelism_, io_system_.ranks_per_node)});
    file_state_ = Registry<FileStatePolicy>::create(ckpt.raw("file_state"), {});
    replay_     = parse_replay(ckpt);
    keep_       = ckpt.integer("keep");
    ckpt_path_  = ckpt.has("path") ? ckpt.text("path") : name_ + "/checkpoint";
    pfs_->names().promise(ckpt_path_);
    if (mode_->needs_local_level() && local_ == nullptr)
      ckpt.fail("mode", "this mode writes node-local levels: name the nodes' storage service in io.local");

    const Params f = p.section("files", files_params());
    setup_.files   = {f.integer("count"),   f.quantity("size"),      f.quantity("write_rate"),
                      f.quantity("append"), f.quantity("read_only"), f.quantity("block")};
    read_interruption_settings(p, setup_);
    data_ = read_data_settings(p, c.services, nodes_, parallelism_.data);
    if (data_)
      data_->batches = static_cast<int64_t>(setup_.iterations);
    plan_                = layout_->plan(model_, parallelism_, io_system_);
    plan_.partner_offset = mode_->partner_offset();
    if ((mode_->memory_tier().on || plan_.partner_offset > 1) && plan_.partner_offset >= plan_.writers.size())
      ckpt.fail("mode", "partner_offset " + std::to_string(plan_.partner_offset) + " needs more writers than the " +
                            std::to_string(plan_.writers.size()) +
                            " of this job's checkpoint (a node cannot be its own partner)");
    setup_.policy       = policy_.get();
    setup_.policy_at    = ckpt.ref().child("policy").location();
    setup_.mode         = mode_.get();
    setup_.file_state   = file_state_.get();
    setup_.checkpoint_B = plan_.total_B();
    refuse_excess_checkpoint_requests(io, setup_.checkpoint_B, request_B_);
    setup_.writers = plan_.writers.size();
  }

  void run(PhaseRuntime& runtime) override
  {
    route_ = std::make_unique<IoRoute>(IoRoute{runtime.platform, nodes_, forwarding_, *pfs_, local_, runtime.faults,
                                               request_B_, io_system_.process_Bps, read_ahead_, name_});
    env_   = std::make_unique<SimTrainingEnvironment>(*route_, plan_, runtime.faults, replay_, runtime.others_running,
                                                    keep_, ckpt_path_);
    if (data_)
      env_->read_data(*data_);
    setup_.job_mtbf_s = env_->job_mtbf_s();
    Rng rng           = Rng::stream(seed_, "phase." + name_ + ".iterations");
    Rng restart_rng   = Rng::stream(seed_, "phase." + name_ + ".restarts");
    result_           = run_training(setup_, *env_, rng, restart_rng);
  }

  PhaseTime time_spent(std::map<std::string, double> charged) const override
  {
    return {job_time(result_, charged), "the job's time"};
  }

  // Every node computes while training runs: useful compute and compute done again.
  std::vector<GroupUse> usage() const override
  {
    return {{nodes_.name, std::nullopt, static_cast<double>(nodes_.count) * result_.compute_s, std::nullopt}};
  }

  Metrics metrics() const override
  {
    const auto mean = [this](IoKind k) { return env_ ? env_->totals(k).mean_s() : NAN; };
    Metrics m       = {{"checkpoint_bytes", result_.checkpoint_B},
                       {"checkpoints", static_cast<double>(result_.checkpoints)},
                       {"checkpoint_files", static_cast<double>(plan_.files())},
                       {"checkpoint_write_s", mean(IoKind::PfsWrite)},
                       {"checkpoint_read_s", mean(IoKind::PfsRead)},
                       {"checkpoint_blocking_s", result_.mean_blocking_s},
                       {"local_write_s", mean(IoKind::LocalWrite)},
                       {"blocking_s", result_.blocking_s},
                       {"interval_s", result_.interval_s},
                       {"failures", static_cast<double>(result_.failures)},
                       {"restarts", static_cast<double>(result_.restarts)},
                       {"wasted_s", result_.wasted_s()},
                       {"checkpoints_cut_short", static_cast<double>(result_.checkpoints_cut_short)},
                       {"restarting_s", result_.restarting_s},
                       {"restarts_cut_short", static_cast<double>(result_.restarts_cut_short)},
                       {"restores_memory", static_cast<double>(result_.restores_memory)},
                       {"restores_local", static_cast<double>(result_.restores_local)},
                       {"restores_pfs", static_cast<double>(result_.restores_pfs)},
                       {"makespan_s", result_.makespan_s},
                       {"goodput", result_.makespan_s > 0 ? result_.useful_s / result_.makespan_s : 0},
                       {"file_state_bytes", result_.file_state_B},
                       {"inconsistent_rollbacks", static_cast<double>(result_.inconsistent_rollbacks)},
                       {"job_mtbf_s", setup_.job_mtbf_s},
                       {"io_replays", env_ ? static_cast<double>(env_->replays()) : 0},
                       {"spare_swaps", static_cast<double>(result_.spare_swaps)},
                       {"host_wait_s", result_.host_wait_s},
                       {"maintenance_s", result_.maintenance_s},
                       {"data_bytes", env_ && env_->data() ? env_->data()->bytes() : 0},
                       {"data_read_Bps", env_ && env_->data() && env_->data()->busy_s() > 0
                                             ? env_->data()->bytes() / env_->data()->busy_s()
                                             : NAN},
                       {"data_stall_s", result_.data_stall_s},
                       {"data_warmup_s", result_.data_warmup_s}};
    for (FaultClass c : kFaultClasses) {
      double count = 0, lost = 0;
      for (const auto& t : result_.interruptions)
        if (t.cause.fault_class == c) {
          count += static_cast<double>(t.interruptions);
          lost += t.lost_s;
        }
      m.emplace_back(std::string("interruptions_") + fault_class_name(c), count);
      m.emplace_back(std::string("lost_") + fault_class_name(c) + "_s", lost);
    }
    return m;
  }

  std::vector<OutputTable> tables() const override
  {
    if (!env_)
      return {};
    CsvWriter checkpoints;
    checkpoints.header = {"checkpoint", "start_s", "end_s",     "iteration",
                          "blocking_s", "bytes",   "durable_s", "replayed"};
    for (const auto& r : result_.records)
      checkpoints.add_numbers({static_cast<double>(r.index), r.start_s, r.end_s, r.iteration, r.blocking_s, r.bytes,
                               r.durable_s, r.replayed ? 1.0 : 0.0});
    CsvWriter failures;
    failures.header = {"time_s", "node", "class", "cause", "node_up_s"};
    for (const auto& f : env_->failures())
      failures.rows.push_back({format_number(f.time_s), std::to_string(f.node), fault_class_name(f.cause.fault_class),
                               CsvWriter::cell(f.cause.name), format_number(f.up_s)});
    CsvWriter interruptions;
    interruptions.header = {"class", "cause", "interruptions", "lost_s"};
    for (const auto& t : result_.interruptions)
      interruptions.rows.push_back({fault_class_name(t.cause.fault_class), CsvWriter::cell(t.cause.name),
                                    std::to_string(t.interruptions), format_number(t.lost_s)});
    return {{"checkpoints", checkpoints}, {"failures", failures}, {"interruptions", interruptions}};
  }

 private:
  uint64_t seed_;
  std::string name_;
  const GroupSpec& nodes_;
  StorageService* pfs_           = nullptr;
  ForwardingService* forwarding_ = nullptr;
  StorageService* local_         = nullptr;
  IoSystem io_system_;
  double request_B_;
  size_t read_ahead_;
  ModelState model_;
  Parallelism parallelism_;
  std::unique_ptr<CheckpointLayout> layout_;
  std::unique_ptr<CheckpointPolicy> policy_;
  std::unique_ptr<CheckpointMode> mode_;
  std::unique_ptr<FileStatePolicy> file_state_;
  IoReplay replay_;
  int64_t keep_;
  std::string ckpt_path_;  // the newest complete checkpoint's name on pfs_
  IoPlan plan_;
  TrainingSetup setup_;
  std::unique_ptr<IoRoute> route_;
  std::unique_ptr<SimTrainingEnvironment> env_;
  TrainingResult result_;
  std::optional<DataSpec> data_;
};

// What metrics() writes, in its order (sim/core/metrics.hpp; `llsim models` lists it).
const MetricTable kTrainBaseMetrics = {
    {"checkpoint_bytes", MetricUnit::Bytes,
     "bytes of all checkpoints, every level (node-local copies, file-state bytes and the parallel file system's)"},
    {"checkpoints", MetricUnit::Count, "checkpoints taken"},
    {"checkpoint_files", MetricUnit::Count, "files one checkpoint creates (the layout's)"},
    {"checkpoint_write_s", MetricUnit::Seconds,
     "mean duration of a checkpoint write to the parallel file system (null when none ran)"},
    {"checkpoint_read_s", MetricUnit::Seconds,
     "mean duration of a checkpoint read from the parallel file system (null when none ran)"},
    {"checkpoint_blocking_s", MetricUnit::Seconds, "mean time one checkpoint stopped training: the C of Young/Daly"},
    {"local_write_s", MetricUnit::Seconds, "mean duration of a node-local checkpoint write (null when none ran)"},
    {"blocking_s", MetricUnit::Seconds, "time checkpoints stopped training, in all"},
    {"interval_s", MetricUnit::Seconds, "the last checkpoint interval the policy gave"},
    {"failures", MetricUnit::Count, "node failures that hit the job, including during a restart"},
    {"restarts", MetricUnit::Count, "restarts that got training going again"},
    {"wasted_s", MetricUnit::Seconds,
     "time lost to failures: compute done again after a rollback, and checkpoints cut short by a failure"},
    {"checkpoints_cut_short", MetricUnit::Count, "checkpoints a failure cut short (their time is in wasted_s)"},
    {"restarting_s", MetricUnit::Seconds,
     "time from each failure until training went on again (restart delays and recovery reads, restarts cut short "
     "by another failure included, and a resumed job's first read): makespan_s = useful compute + blocking_s + "
     "wasted_s + restarting_s + maintenance_s + data_stall_s + data_warmup_s"},
    {"restarts_cut_short", MetricUnit::Count,
     "restarts that another failure cut short before training went on (failures = restarts + restarts_cut_short)"},
    {"restores_memory", MetricUnit::Count,
     "restarts that read the checkpoint from host memory (multilevel memory tier)"},
    {"restores_local", MetricUnit::Count, "restarts that read the checkpoint from the node-local level"},
    {"restores_pfs", MetricUnit::Count,
     "restarts that read the checkpoint from the parallel file system (restarts from scratch count in none)"},
    {"makespan_s", MetricUnit::Seconds, "time from the job's start until its work is done"},
    {"goodput", MetricUnit::Ratio, "useful compute / makespan"},
    {"file_state_bytes", MetricUnit::Bytes,
     "bytes the file-state policy saved or kept of the files the job writes (0 with file_state none)"},
    {"inconsistent_rollbacks", MetricUnit::Count,
     "rollbacks that left the job's files out of step with the checkpoint (the file-state policy's)"},
    {"job_mtbf_s", MetricUnit::Seconds,
     "the job's mean time between failures, from its nodes' fault models (null when they never fail)"},
    {"io_replays", MetricUnit::Count,
     "I/O operations (checkpoint writes, restart reads) run through the services rather than charged the cost "
     "measured (io_replay)"},
    {"spare_swaps", MetricUnit::Count,
     "failed hosts the job replaced with a spare (several for one failure of hosts at one instant; none for a host "
     "back within swap_time)"},
    {"host_wait_s", MetricUnit::Seconds,
     "part of restarting_s spent waiting for a full set of hosts: a spare's swap_time, or a repair when no spare "
     "was free"},
    {"maintenance_s", MetricUnit::Seconds,
     "planned stops (maintenance.every) and the checkpoint reads that restarted the job after them"},
    {"data_bytes", MetricUnit::Bytes, "training data read (data), batches a failure dropped included"},
    {"data_read_Bps", MetricUnit::BytesPerSecond,
     "achieved read bandwidth of the data path: data_bytes over the time a batch was being read (null without data)"},
    {"data_stall_s", MetricUnit::Seconds, "iterations waiting for their batch, the warm-ups aside"},
    {"data_warmup_s", MetricUnit::Seconds,
     "the wait for the first batch after the start, each restart and each maintenance stop"},
};

// Then, for each fault class, the job's interruptions of that class and the time they cost.
MetricTable train_metrics()
{
  MetricTable t = kTrainBaseMetrics;
  for (FaultClass c : kFaultClasses) {
    const std::string name = fault_class_name(c);
    t.push_back({"interruptions_" + name, MetricUnit::Count,
                 "failures of the job whose cause counts under " + name + " (sim/faults/fault_class.hpp)"});
    t.push_back({"lost_" + name + "_s", MetricUnit::Seconds,
                 "time " + name +
                     " failures cost: compute they discarded, checkpoints they cut short, and from "
                     "each until training went on (or the next failure)"});
  }
  return t;
}

}  // namespace

LLSIM_REGISTER(Phase, "train", TrainPhase, "training with checkpoints, failures and restarts on a Sunway-like machine",
               kTrainParams);
LLSIM_DECLARE_METRICS(Phase, "train", train_metrics());
LLSIM_DECLARE_WORK_UNITS("train", {{"checkpoints", 1, "checkpoint", "a checkpoint taken"}});

}  // namespace llsim
