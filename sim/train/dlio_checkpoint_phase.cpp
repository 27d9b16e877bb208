// Phase kind `dlio_checkpoint`: MLPerf Storage's checkpoint workload as DLIO emulates it. Ranks
// on client hosts save a Llama 3-shaped model's checkpoint to a storage service, each its shard
// with fsync, then load it back with the clients' page cache dropped; a save's (load's) duration
// is its slowest rank's, its throughput the checkpoint's size over that duration.
//
//   - name: save-405b
//     kind: dlio_checkpoint
//     clients: clients          the hosts the ranks run on, processes / hosts consecutive ranks each
//     service: fs               the storage service the checkpoints go to
//     forwarding: fwd           a forwarding service in front of it (absent: none)
//     processes: 512            ranks (DLIO's MPI processes): tensor x pipeline x data
//     workload: llama3-405b     the model and its parallelism (dlio_checkpoint_workload.hpp), or
//                               config: a DLIO checkpoint workload YAML (dlio_checkpoint_config.hpp);
//     saves: 1                  any of num_layers, hidden_size, ffn_hidden_size, vocab_size,
//     loads: 1                  num_attention_heads, num_kv_heads, tensor, pipeline, zero_stage,
//                               saves and loads overrides its figure
//     process_bandwidth: 1GBps  what one rank's request moves at most (fitted): a save sends
//                               one at a time, a load keeps read_ahead in flight
//     request: 256MiB           size of the simulated requests
//     read_ahead: 4             read requests a loading rank keeps in flight
//     stripe_count: 0           targets each rank's files are spread over (0: all)
//
// Built on train's checkpoint I/O (sim/train/checkpoint_io.hpp): the model state and who holds
// what are train's (parallelism.hpp, with the ZeRO stage as its sharding), and the plan is
// train's file-per-process layout (layout_levers.hpp) with each rank its own writer of one I/O
// process and one file, so the slowest rank is the one with the most bytes. The storage service writes
// through to its disks (a write is done when its disk has it) and keeps no read cache, which is
// what fsync on save and the dropped page cache on load ask for. Saves run one after another,
// then the loads, each load reading the saves' checkpoints in turn (with no save, the checkpoint
// is laid out on the service when the phase starts, without simulated time, as an earlier DLIO
// run leaves it).
//
// Metrics: kDlioCheckpointMetrics below. CSV: operation, index, start_s, end_s (from the
// phase's start), duration_s, GiBps.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/dlio_checkpoint.yaml
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/units.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/phase/phase.hpp"
#include "sim/sg/clock.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/forwarding.hpp"
#include "sim/train/checkpoint_io.hpp"
#include "sim/train/dlio_checkpoint_workload.hpp"
#include "sim/train/layout_levers.hpp"
#include "sim/train/training_work.hpp"

#include <algorithm>
#include <limits>
#include <memory>

namespace llsim {

namespace {

constexpr double kNoDeadline = std::numeric_limits<double>::infinity();
constexpr double kGiB        = 1024.0 * 1024.0 * 1024.0;  // DLIO's "GB"

const ParamTable& dlio_checkpoint_params()
{
  static const ParamTable t = [] {
    ParamTable own = {
        ParamSpec::text("clients", "group whose hosts run the ranks, processes / hosts consecutive ranks each"),
        ParamSpec::text("service", "the storage service the checkpoints go to"),
        ParamSpec::text("forwarding", "forwarding service between the clients and the storage (absent: none)")
            .may_be_absent(),
        ParamSpec::integer("processes", "ranks (DLIO's MPI processes): tensor x pipeline x data")
            .at_least(1)
            .at_most(1e6),
        ParamSpec::quantity("process_bandwidth", Dimension::Bandwidth,
                            "what one rank's request moves at most: a save sends one at a time, a load keeps "
                            "read_ahead in flight. Default fitted (llsim calibrate --storage) on MLPerf Storage "
                            "v3.0's checkpoint rows (11 rows of 3 submitters, less 5 loads that may have been cached): "
                            "held-out median |error| 24.7% (docs/validation.md)")
            .defaults("1GBps")
            .positive(),
        ParamSpec::quantity("request", Dimension::Size,
                            "size of the simulated requests (pipelining granularity; smaller is finer and slower)")
            .defaults("256MiB")
            .positive(),
        ParamSpec::integer("read_ahead", "read requests a loading rank keeps in flight").defaults("4").at_least(1),
        ParamSpec::integer("stripe_count", "targets each rank's files are spread over (0: all)")
            .defaults("0")
            .at_least(0),
    };
    for (const ParamSpec& s : dlio_checkpoint_workload_params())
      own.push_back(s);
    return own;
  }();
  return t;
}

struct Operation {
  IoKind kind;
  int64_t index;
  double start_s, end_s;
  double seconds() const { return end_s - start_s; }
};

class DlioCheckpointPhase : public Phase {
 public:
  DlioCheckpointPhase(const Params& p, const PhaseLoadContext& c)
      : name_(c.phase_name)
      , clients_(c.platform.group_param(p, "clients"))
      , storage_(&c.services.get<StorageService>(p, "service"))
      , w_(dlio_checkpoint_workload(p))
      , request_B_(p.quantity("request"))
      , process_Bps_(p.quantity("process_bandwidth"))
      , read_ahead_(static_cast<size_t>(p.integer("read_ahead")))
  {
    c.uses.push_back(clients_.name);
    if (p.has("forwarding")) {
      forwarding_ = &c.services.get<ForwardingService>(p, "forwarding");
      if (&forwarding_->backend() != storage_)
        p.fail("forwarding", "forwarding service '" + forwarding_->name() + "' stands in front of '" +
                                 forwarding_->backend().name() + "', not of '" + storage_->name() + "'");
      if (const std::string why = forwarding_->cannot_serve(clients_.count); !why.empty())
        p.fail("forwarding", why);
    }
    const int64_t processes = p.integer("processes");
    if (processes % clients_.count != 0)
      p.fail("processes", std::to_string(processes) + " ranks do not spread evenly over the " +
                              std::to_string(clients_.count) + " hosts of group '" + clients_.name + "'");
    const int64_t model_parallel = w_.tensor * w_.pipeline;
    if (processes % model_parallel != 0)
      p.fail("processes", std::to_string(processes) + " ranks are not a whole number of model replicas of tensor " +
                              std::to_string(w_.tensor) + " x pipeline " + std::to_string(w_.pipeline) + " ranks");
    if (p.integer("stripe_count") > static_cast<int64_t>(storage_->targets()))
      p.fail("stripe_count", std::to_string(p.integer("stripe_count")) + " targets per file, but service '" +
                                 storage_->name() + "' has " + std::to_string(storage_->targets()));
    parallelism_ = {processes / model_parallel, w_.pipeline, w_.tensor, 1};
    model_       = dlio_model_state(w_, processes);
    // Every rank its own writer of one I/O process and one file, on its host.
    IoSystem io;
    io.nodes       = processes;
    io.targets     = storage_->targets();
    io.stripe_B    = storage_->stripe_size();
    io.process_Bps = process_Bps_;
    plan_          = plan_checkpoint({false, 1, true, p.integer("stripe_count")}, model_, parallelism_, io);
    // Each rank starts on a piece of its own (w mod pieces), as a file system's allocator starts
    // successive files on successive targets: otherwise every rank would visit its pieces in the
    // same order and all would be on the same server at once.
    const int64_t per_host = processes / clients_.count;
    for (size_t w = 0; w < plan_.writers.size(); ++w) {
      IoWriter& writer = plan_.writers[w];
      writer.node /= per_host;
      std::rotate(writer.pieces.begin(), writer.pieces.begin() + static_cast<std::ptrdiff_t>(w % writer.pieces.size()),
                  writer.pieces.end());
    }
    refuse_excess_checkpoint_requests(p, plan_.total_B(), request_B_);
    show_checkpoint_figures(w_, p);
  }

  void run(PhaseRuntime& runtime) override
  {
    route_   = std::make_unique<IoRoute>(IoRoute{runtime.platform, clients_, forwarding_, *storage_, nullptr,
                                               runtime.faults, request_B_, process_Bps_, read_ahead_, name_});
    faults_  = &runtime.faults;
    start_s_ = now();
    std::vector<FileId> saved;
    for (int64_t i = 0; i < w_.saves; ++i) {
      saved.push_back(storage_->new_object());
      carry_out(IoKind::PfsWrite, i, saved.back(), i);
    }
    if (saved.empty() && w_.loads > 0)
      saved.push_back(lay_out_checkpoint());
    for (int64_t i = 0; i < w_.loads; ++i) {
      const auto checkpoint = static_cast<int64_t>(static_cast<size_t>(i) % saved.size());
      carry_out(IoKind::PfsRead, i, saved[static_cast<size_t>(checkpoint)], checkpoint);
    }
  }

  Metrics metrics() const override
  {
    const double bytes = plan_.total_B();
    const double save  = mean_of(IoKind::PfsWrite, [](const Operation& op) { return op.seconds(); });
    const double load  = mean_of(IoKind::PfsRead, [](const Operation& op) { return op.seconds(); });
    const auto GiBps   = [bytes](const Operation& op) { return bytes / op.seconds() / kGiB; };
    return {{"processes", static_cast<double>(parallelism_.ranks())},
            {"data_parallel", static_cast<double>(parallelism_.data)},
            {"checkpoint_bytes", bytes},
            {"checkpoint_GiB", bytes / kGiB},
            {"largest_rank_bytes", largest_writer_B()},
            {"saves", static_cast<double>(count(IoKind::PfsWrite))},
            {"save_s", save},
            {"save_GiBps", mean_of(IoKind::PfsWrite, GiBps)},
            {"loads", static_cast<double>(count(IoKind::PfsRead))},
            {"load_s", load},
            {"load_GiBps", mean_of(IoKind::PfsRead, GiBps)}};
  }

  // <phase>.csv: one row per save and load.
  std::vector<OutputTable> tables() const override
  {
    CsvWriter t;
    t.header = {"operation", "index", "start_s", "end_s", "duration_s", "GiBps"};
    for (const Operation& op : operations_) {
      const double duration = op.seconds();
      t.rows.push_back({op.kind == IoKind::PfsWrite ? "save" : "load", std::to_string(op.index),
                        format_number(op.start_s - start_s_), format_number(op.end_s - start_s_),
                        format_number(duration), format_number(plan_.total_B() / duration / kGiB)});
    }
    return {{"", t}};
  }

 private:
  // One save or load of the whole checkpoint, every rank at once; over when the slowest is.
  // `checkpoint`: which of the saved ones (its files' names).
  void carry_out(IoKind kind, int64_t index, FileId object, int64_t checkpoint)
  {
    const double start        = now();
    auto io                   = CheckpointIo::start(*route_, plan_, kind, 1, 1, object, checkpoint, {});
    const auto [host, down_s] = first_client_down(start);
    if (!io->wait(down_s)) {
      // DLIO's ranks are MPI processes: one whose host died ends the benchmark.
      io->cancel();
      throw SimulationError("host " + clients_.name + "-" + std::to_string(host) + " went down at " +
                            format_quantity(down_s, Dimension::Duration) +
                            ": DLIO's ranks do not survive a client failure, so the benchmark ends there");
    }
    if (!io->failure().ok())
      throw SimulationError(std::string("checkpoint ") + (kind == IoKind::PfsWrite ? "save " : "load ") +
                            std::to_string(index) + " failed: " + io->failure().message);
    operations_.push_back({kind, index, start, io->end_s()});
  }

  // The client host that fails first from `from` on, and when (infinity: none does).
  std::pair<int64_t, double> first_client_down(double from) const
  {
    std::pair<int64_t, double> first = {0, kNoDeadline};
    for (int64_t h = 0; h < clients_.count; ++h) {
      const double down = faults_->next_failure(clients_.host(h), from);
      if (down < first.second)
        first = {h, down};
    }
    return first;
  }

  // The checkpoint a load-only run reads, placed as the plan would write it.
  FileId lay_out_checkpoint()
  {
    const FileId object = storage_->new_object();
    for (const IoWriter& writer : plan_.writers)
      for (const IoPiece& piece : writer.pieces) {
        const IoOutcome taken = storage_->account(object, piece.target, piece.bytes);
        if (!taken.ok())
          throw SimulationError("the checkpoint to load does not fit on service '" + storage_->name() +
                                "': " + taken.message);
      }
    return object;
  }

  double largest_writer_B() const
  {
    double most = 0;
    for (const IoWriter& w : plan_.writers)
      most = std::max(most, w.bytes);
    return most;
  }

  int64_t count(IoKind kind) const
  {
    int64_t n = 0;
    for (const Operation& op : operations_)
      n += op.kind == kind ? 1 : 0;
    return n;
  }

  // The mean over the operations of `kind` of a figure of each (MLPerf's throughput is the mean
  // of each checkpoint's, not the size over the mean duration); NaN when there were none.
  template <class Figure>
  double mean_of(IoKind kind, Figure figure) const
  {
    double sum = 0;
    for (const Operation& op : operations_)
      sum += op.kind == kind ? figure(op) : 0;
    const int64_t n = count(kind);
    return n > 0 ? sum / static_cast<double>(n) : NAN;
  }

  std::string name_;
  const GroupSpec& clients_;
  StorageService* storage_;
  ForwardingService* forwarding_ = nullptr;
  DlioCheckpointWorkload w_;
  double request_B_, process_Bps_;
  size_t read_ahead_;
  Parallelism parallelism_;
  ModelState model_;
  IoPlan plan_;
  std::unique_ptr<IoRoute> route_;
  HostFaults* faults_ = nullptr;
  double start_s_     = 0;
  std::vector<Operation> operations_;
};

// What metrics() writes, in its order (sim/core/metrics.hpp; `llsim models` lists it).
const MetricTable kDlioCheckpointMetrics = {
    {"processes", MetricUnit::Count, "ranks (DLIO's MPI processes)"},
    {"data_parallel", MetricUnit::Count, "data-parallel replicas: processes / (tensor x pipeline)"},
    {"checkpoint_bytes", MetricUnit::Bytes, "bytes of one checkpoint, every rank's shard"},
    {"checkpoint_GiB", MetricUnit::Number, "checkpoint_bytes in GiB (DLIO's GB), as MLPerf Storage reports the size"},
    {"largest_rank_bytes", MetricUnit::Bytes,
     "the most bytes one rank saves or loads (the slowest, where ranks are alike)"},
    {"saves", MetricUnit::Count, "checkpoints saved"},
    {"save_s", MetricUnit::Seconds, "mean duration of a save, until its slowest rank is done (null with none)"},
    {"save_GiBps", MetricUnit::Number,
     "MLPerf Storage's save throughput in GB/s (GiB/s): the mean over the saves of checkpoint_GiB / duration"},
    {"loads", MetricUnit::Count, "checkpoints loaded"},
    {"load_s", MetricUnit::Seconds, "mean duration of a load, until its slowest rank is done (null with none)"},
    {"load_GiBps", MetricUnit::Number,
     "MLPerf Storage's load throughput in GB/s (GiB/s): the mean over the loads of checkpoint_GiB / duration"},
};

}  // namespace

LLSIM_REGISTER(Phase, "dlio_checkpoint", DlioCheckpointPhase,
               "MLPerf Storage's checkpoint workload: DLIO's ranks save and load a Llama 3-shaped checkpoint",
               dlio_checkpoint_params());
LLSIM_DECLARE_METRICS(Phase, "dlio_checkpoint", kDlioCheckpointMetrics);

}  // namespace llsim
