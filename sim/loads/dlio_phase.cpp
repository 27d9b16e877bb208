// Phase kind `dlio`: MLPerf Storage's training workload as DLIO emulates it. Each emulated
// accelerator is a rank on a client host that reads batches of samples from a dataset on a
// storage service, then computes for a fixed time per batch; the result is the accelerator
// utilisation (AU: compute time over wall time) and the read throughput.
//
//   - name: unet3d
//     kind: dlio
//     clients: clients        the hosts the ranks run on, spread evenly (rank r on host
//                             r x hosts / accelerators)
//     service: fs             the storage service holding the dataset
//     accelerators: 16        ranks
//     workload: unet3d_h100   MLPerf Storage v1.0's figures (dlio_workload.hpp), or config: a
//                             DLIO workload YAML (dlio_config.hpp); any of data_loader, format,
//     epochs: 1               files, samples_per_file, record_length, record_length_stdev,
//                             batch_size, read_threads, prefetch, computation_time, epochs,
//                             au_threshold overrides its figure
//
// The dataset is created on the service when the phase starts, as DLIO's data generation leaves
// it: `files` files of samples_per_file samples each, a file's sample size drawn once (normal,
// record_length and its stdev, at least 1 B), striped as the service stripes new files. No
// time passes for it: MLPerf times the reads only.
//
// Each epoch shuffles the files with the seed (an affine permutation of their indices) and
// gives each rank steps_per_epoch = samples / (batch_size x accelerators) batches: a run of the
// shuffled files, record after record. A rank's loader keeps `read_threads` reads in flight and
// reads batches up to prefetch x read_threads ahead of the one its accelerator waits for
// (PyTorch's DataLoader: prefetch_factor batches per worker; 0: a batch is read when its
// accelerator asks for it). A PyTorch worker reads whole batches, one sample after another; a
// TensorFlow or DALI thread takes the next sample, or with format tfrecord the rest of its file's
// records as one stream. A sample is a whole file when the file holds one, else its record at
// its offset. The accelerator waits for each batch (its data stall), then computes for
// computation_time. AU as DLIO computes it: per epoch, compute time over wall time leaving out
// the epoch's first step, averaged over epochs and ranks; throughput as MLPerf reports it:
// samples per second x record_length.
//
// Why a phase kind rather than train's `data:` section: DLIO's ranks run on their own, with no
// step shared by all of them, no failures and no checkpoints; train's data loader feeds one
// synchronous global batch per iteration of a job that fails and restarts.
//
// Metrics: kDlioMetrics below. CSV: rank, host (index in clients), compute_s, data_stall_s,
// end_s (from the phase's start), au.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/dlio.yaml
#include "sim/core/errors.hpp"
#include "sim/core/random.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/units.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/loads/dlio_workload.hpp"
#include "sim/phase/phase.hpp"
#include "sim/sg/activities.hpp"
#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>
#include <numeric>

namespace llsim {

namespace {

constexpr double kNoDeadline = std::numeric_limits<double>::infinity();
constexpr double kMiB        = 1024.0 * 1024.0;  // DLIO's "MB"

const ParamTable& dlio_params()
{
  static const ParamTable t = [] {
    ParamTable own = {
        ParamSpec::text("clients", "group whose hosts run the ranks, spread evenly"),
        ParamSpec::text("service", "the storage service holding the dataset"),
        ParamSpec::integer("accelerators", "emulated accelerators (DLIO ranks)").at_least(1).at_most(1e6),
    };
    for (const ParamSpec& s : dlio_workload_params())
      own.push_back(s);
    return own;
  }();
  return t;
}

// One emulated accelerator and its data loader.
struct Rank {
  HostId host         = 0;
  int64_t next_sample = 0;   // of its whole run, the next one a loader thread starts
  int64_t asked       = 0;   // batches the accelerator has asked for
  int64_t ready       = 0;   // batches read in full, counted from the first
  std::deque<int64_t> left;  // samples still to read, per batch from `ready` on
  std::unique_ptr<WaitPoint> changed;
  double compute_s = 0, stall_s = 0, end_s = 0;
  std::vector<double> epoch_au;             // DLIO's AU of each epoch (compute()'s comment)
  std::vector<double> epoch_samples_per_s;  // and its samples per second, over the same window
};

class DlioPhase : public Phase {
 public:
  DlioPhase(const Params& p, const PhaseLoadContext& c)
      : clients_(c.platform.group_param(p, "clients"))
      , storage_(&c.services.get<StorageService>(p, "service"))
      , accelerators_(p.integer("accelerators"))
      , w_(dlio_workload(p))
  {
    c.uses.push_back(clients_.name);
    const int64_t samples = w_.files * w_.samples_per_file;
    steps_per_epoch_      = samples / (w_.batch_size * accelerators_);
    if (steps_per_epoch_ < 1)
      p.fail("accelerators", format_number(static_cast<double>(accelerators_)) + " accelerators of " +
                                 format_number(static_cast<double>(w_.batch_size)) + " samples per batch need " +
                                 format_number(static_cast<double>(accelerators_ * w_.batch_size)) +
                                 " samples for one step; the dataset has " +
                                 format_number(static_cast<double>(samples)));
  }

  void run(PhaseRuntime& runtime) override
  {
    faults_ = &runtime.faults;
    create_dataset(runtime.rng);
    start_s_            = now();
    const int64_t steps = steps_per_epoch_ * w_.epochs;
    ranks_.resize(static_cast<size_t>(accelerators_));
    size_t running = 0;
    WaitPoint all_done;
    for (int64_t r = 0; r < accelerators_; ++r) {
      Rank& rank   = ranks_[static_cast<size_t>(r)];
      rank.host    = clients_.host(r * clients_.count / accelerators_);
      rank.changed = std::make_unique<WaitPoint>();
      for (int64_t t = 0; t < w_.read_threads; ++t)
        start_actor(runtime.platform, rank.host, "dlio-loader", runtime.label, [this, r, t] { load(r, t); });
      ++running;
      start_actor(runtime.platform, rank.host, "dlio-rank", runtime.label, [this, r, steps, &running, &all_done] {
        compute(r, steps);
        --running;
        all_done.notify_all();
      });
    }
    all_done.wait_until([&running] { return running == 0; }, kNoDeadline);
  }

  Metrics metrics() const override
  {
    double au_sum = 0, per_second = 0, stall = 0, max_stall = 0, end = start_s_;
    for (const Rank& r : ranks_) {
      au_sum += epoch_mean(r.epoch_au);
      per_second += epoch_mean(r.epoch_samples_per_s);
      stall += r.stall_s;
      max_stall = std::max(max_stall, r.stall_s);
      end       = std::max(end, r.end_s);
    }
    const double n  = static_cast<double>(ranks_.size());
    const double au = n > 0 ? au_sum / n : 0;
    return {{"accelerators", static_cast<double>(accelerators_)},
            {"au", au},
            {"au_threshold", w_.au_threshold},
            {"au_passed", au >= w_.au_threshold ? 1.0 : 0.0},
            {"samples_per_s", per_second},
            {"throughput_MiBps", per_second * w_.record_B / kMiB},
            {"bytes_read", read_B_},
            {"steps", static_cast<double>(steps_per_epoch_ * w_.epochs)},
            {"mean_data_stall_s", n > 0 ? stall / n : 0},
            {"max_data_stall_s", max_stall},
            {"makespan_s", end - start_s_}};
  }

  // <phase>.csv: one row per rank.
  std::vector<OutputTable> tables() const override
  {
    CsvWriter t;
    t.header = {"rank", "host", "compute_s", "data_stall_s", "end_s", "au"};
    for (size_t r = 0; r < ranks_.size(); ++r) {
      const Rank& rank = ranks_[r];
      t.add_numbers({static_cast<double>(r), static_cast<double>(rank.host - clients_.first_host), rank.compute_s,
                     rank.stall_s, rank.end_s - start_s_, epoch_mean(rank.epoch_au)});
    }
    return {{"", t}};
  }

 private:
  // The dataset as DLIO's data generation leaves it: bookkeeping, no simulated time.
  void create_dataset(Rng& rng)
  {
    file_B_.reserve(static_cast<size_t>(w_.files));
    for (int64_t f = 0; f < w_.files; ++f) {
      const double record = std::max(1.0, w_.record_B + w_.record_stdev_B * rng.standard_normal());
      const double bytes  = record * static_cast<double>(w_.samples_per_file);
      const FileId file   = storage_->new_file();
      for (const auto& [target, part] : storage_->parts(file, 0, bytes)) {
        const IoOutcome taken = storage_->account(file, target, part);
        if (!taken.ok())
          throw SimulationError("the dataset does not fit on service '" + storage_->name() + "': " + taken.message);
      }
      files_.push_back(file);
      file_B_.push_back(bytes);
    }
    // Each epoch's order of the files: k -> (a x k + b) mod files, a coprime with files. A
    // rank's samples are a run of the files in that order, record after record.
    multiplier_ = 1;
    if (w_.files > 1)
      do
        multiplier_ = 1 + rng.bits() % static_cast<uint64_t>(w_.files - 1);
      while (std::gcd(multiplier_, static_cast<uint64_t>(w_.files)) != 1);
    for (int64_t e = 0; e < w_.epochs; ++e)
      offsets_.push_back(rng.bits() % static_cast<uint64_t>(w_.files));
  }

  // The samples one rank reads in an epoch.
  int64_t samples_per_epoch() const { return steps_per_epoch_ * w_.batch_size; }

  // Where the i-th sample of rank r's run lies: its file and its record in it.
  std::pair<size_t, int64_t> sample_of(int64_t r, int64_t i) const
  {
    const int64_t per_epoch = samples_per_epoch();
    const int64_t epoch     = i / per_epoch;
    const int64_t position  = r * per_epoch + i % per_epoch;
    const auto k            = static_cast<unsigned __int128>(position / w_.samples_per_file);
    const auto file =
        static_cast<size_t>((k * multiplier_ + offsets_[static_cast<size_t>(epoch)]) % static_cast<uint64_t>(w_.files));
    return {file, position % w_.samples_per_file};
  }

  // Whether batch b is within reach of rank r's loader: up to prefetch x read_threads batches
  // ahead of the one its accelerator asked for (PyTorch: prefetch_factor batches per worker).
  bool within_reach(const Rank& rank, int64_t batch) const
  {
    return batch < rank.asked + w_.prefetch * w_.read_threads;
  }

  // Reads `count` samples of rank r's run from the i-th on, records that follow each other in one
  // file (one request: a stream of records); the run fails if the read does.
  void read_samples(int64_t r, int64_t i, int64_t count)
  {
    const Rank& rank          = ranks_[static_cast<size_t>(r)];
    const auto [file, record] = sample_of(r, i);
    const double record_B     = file_B_[file] / static_cast<double>(w_.samples_per_file);
    const double bytes        = record_B * static_cast<double>(count);
    const IoOutcome o         = storage_->read(rank.host, files_[file], record_B * static_cast<double>(record), bytes,
                                               faults_->next_failure(rank.host, now()));
    if (!o.ok() && faults_->is_down(rank.host, now()))
      client_failed(r);
    if (!o.ok())
      throw SimulationError("a read of rank " + std::to_string(r) + " failed: " + o.message);
    read_B_ += bytes;
  }

  // How many samples from the i-th on one read takes: one, or with a streamed format (tfrecord)
  // the records up to the end of their file or of the rank's part of the epoch.
  int64_t samples_in_read(int64_t r, int64_t i) const
  {
    if (!w_.streamed)
      return 1;
    const int64_t per_epoch = samples_per_epoch();  // the next epoch orders the files anew
    return std::min(w_.samples_per_file - sample_of(r, i).second, per_epoch - i % per_epoch);
  }

  // `samples` more samples of `batch` are read; batches complete in order for the accelerator.
  void samples_read(Rank& rank, int64_t batch, int64_t samples)
  {
    const size_t slot = static_cast<size_t>(batch - rank.ready);
    if (rank.left.size() <= slot)
      rank.left.resize(slot + 1, w_.batch_size);
    rank.left[slot] -= samples;
    while (!rank.left.empty() && rank.left.front() == 0) {
      rank.left.pop_front();
      rank.ready += 1;
    }
    rank.changed->notify_all();
  }

  // Thread `thread` of rank r's loader. PyTorch: a worker reads whole batches, thread, thread +
  // read_threads, ..., one sample after another. TensorFlow and DALI: the threads read the
  // samples in order, each taking the next (with a streamed format, the rest of its file).
  void load(int64_t r, int64_t thread)
  {
    Rank& rank          = ranks_[static_cast<size_t>(r)];
    const int64_t steps = steps_per_epoch_ * w_.epochs;
    if (w_.loader == DlioLoader::PyTorch) {
      for (int64_t batch = thread; batch < steps; batch += w_.read_threads) {
        rank.changed->wait_until([&] { return within_reach(rank, batch); }, kNoDeadline);
        for (int64_t i = batch * w_.batch_size; i < (batch + 1) * w_.batch_size; ++i)
          read_samples(r, i, 1);
        samples_read(rank, batch, w_.batch_size);
      }
      return;
    }
    const int64_t total = steps * w_.batch_size;
    while (true) {
      rank.changed->wait_until(
          [&] { return rank.next_sample >= total || within_reach(rank, rank.next_sample / w_.batch_size); },
          kNoDeadline);
      if (rank.next_sample >= total)
        return;
      const int64_t i     = rank.next_sample;
      const int64_t count = samples_in_read(r, i);
      rank.next_sample += count;
      read_samples(r, i, count);
      for (int64_t first = i; first < i + count;) {  // credit each batch the read covers
        const int64_t batch = first / w_.batch_size;
        const int64_t in    = std::min(i + count, (batch + 1) * w_.batch_size) - first;
        samples_read(rank, batch, in);
        first += in;
      }
    }
  }

  // DLIO's ranks are MPI processes: one that dies ends the benchmark.
  [[noreturn]] void client_failed(int64_t r) const
  {
    const Rank& rank = ranks_[static_cast<size_t>(r)];
    throw SimulationError("rank " + std::to_string(r) + "'s host " + clients_.name + "-" +
                          std::to_string(rank.host - clients_.first_host) + " went down at " +
                          format_quantity(now(), Dimension::Duration) +
                          ": DLIO's ranks do not survive a client failure, so the benchmark ends there");
  }

  // Rank r's accelerator: asks for each batch, waits for it, computes.
  void compute(int64_t r, int64_t steps)
  {
    Rank& rank = ranks_[static_cast<size_t>(r)];
    // DLIO's AU of an epoch leaves out its first step (metric_exclude_start_steps: 1): the
    // window opens when the accelerator asks for the epoch's second batch.
    const int64_t skipped = steps_per_epoch_ > 1 ? 1 : 0;
    double window_start   = now();
    for (int64_t step = 0; step < steps; ++step) {
      const int64_t in_epoch = step % steps_per_epoch_;
      if (in_epoch == skipped)
        window_start = now();
      rank.asked = step + 1;
      rank.changed->notify_all();
      const double asked_at = now();
      rank.changed->wait_until([&] { return rank.ready > step; }, kNoDeadline);
      rank.stall_s += now() - asked_at;
      if (!pause(w_.computation_s, faults_->next_failure(rank.host, now())))
        client_failed(r);
      rank.compute_s += w_.computation_s;
      if (in_epoch == steps_per_epoch_ - 1) {
        const double window = now() - window_start;
        const auto measured = static_cast<double>(steps_per_epoch_ - skipped);
        rank.epoch_au.push_back(window > 0 ? measured * w_.computation_s / window : 0);
        rank.epoch_samples_per_s.push_back(window > 0 ? measured * static_cast<double>(w_.batch_size) / window : 0);
      }
    }
    rank.end_s = now();
  }

  // The mean over a rank's epochs of one of its figures (DLIO's AU, its samples per second).
  static double epoch_mean(const std::vector<double>& per_epoch)
  {
    double sum = 0;
    for (double v : per_epoch)
      sum += v;
    return per_epoch.empty() ? 0 : sum / static_cast<double>(per_epoch.size());
  }

  const GroupSpec& clients_;
  StorageService* storage_;
  HostFaults* faults_ = nullptr;
  int64_t accelerators_;
  DlioWorkload w_;
  int64_t steps_per_epoch_ = 0;
  std::vector<FileId> files_;
  std::vector<double> file_B_;
  uint64_t multiplier_ = 1;
  std::vector<uint64_t> offsets_;
  std::vector<Rank> ranks_;
  double start_s_ = 0, read_B_ = 0;
};

// What metrics() writes, in its order (sim/core/metrics.hpp; `llsim models` lists it).
const MetricTable kDlioMetrics = {
    {"accelerators", MetricUnit::Count, "emulated accelerators (DLIO ranks)"},
    {"au", MetricUnit::Ratio,
     "accelerator utilisation as DLIO reports it: in each epoch, compute time over wall time leaving out the "
     "epoch's first step; the mean over epochs and ranks"},
    {"au_threshold", MetricUnit::Ratio, "the least AU of a valid MLPerf Storage result (0.9; cosmoflow 0.7)"},
    {"au_passed", MetricUnit::Number, "1 when au >= au_threshold, else 0"},
    {"samples_per_s", MetricUnit::PerSecond,
     "samples the accelerators consumed per second over AU's windows (each epoch without its first step), summed "
     "over the ranks"},
    {"throughput_MiBps", MetricUnit::Number,
     "read throughput as MLPerf Storage reports it: samples_per_s x record_length, in MiB/s (DLIO's MB)"},
    {"bytes_read", MetricUnit::Bytes, "bytes the loaders read"},
    {"steps", MetricUnit::Count, "batches each accelerator computed"},
    {"mean_data_stall_s", MetricUnit::Seconds, "mean over the ranks of the time an accelerator waited for its batch"},
    {"max_data_stall_s", MetricUnit::Seconds, "the longest total wait of one rank"},
    {"makespan_s", MetricUnit::Seconds, "time from the phase's start to the last rank's last step"},
};

}  // namespace

LLSIM_REGISTER(Phase, "dlio", DlioPhase, "MLPerf Storage's training workload: DLIO's ranks read batches and compute",
               dlio_params());
LLSIM_DECLARE_METRICS(Phase, "dlio", kDlioMetrics);

}  // namespace llsim
