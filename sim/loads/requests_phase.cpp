// Phase kind `requests`: a synthetic open-loop load on one service, to measure what a service
// does under a given load (latency, throughput, failures, cache hits) or to load it while other
// phases run.
//
//   - name: probe
//     kind: requests
//     clients: cpu            request i comes from host i mod count of this group
//     service: mds            a metadata, storage or memory_pool service
//     op: stat                metadata: mkdir create open stat readdir unlink close;
//                             storage: read write; memory_pool: put get
//     count: 20000            requests
//     arrival: {dist: exponential, mean: 40us}   time between two arrivals (Poisson when
//                                                exponential); absent: all at the start
//     bytes: 1MB              storage and memory_pool: bytes of a request (a storage read:
//                             at most this much of the key's file; 0: all of it)
//     keys: 1000              distinct paths, files or blocks; request i uses key i mod keys
//     sample_period: 1s       rows of <phase>.csv
//
// Requests arrive whatever the state of the service (open loop), each on its client host (a
// metadata request is issued from the arrival itself; a storage or memory_pool request by an
// actor of its own on the client host, which waits for the reply). A request to a host that is
// down, or whose client goes down, fails. Latency runs from arrival to reply, network included.
// Keys are shared by the phases: a storage read or a memory_pool get finds the file or block
// that a phase wrote under its key. One that no phase has written (yet), or that is gone
// (evicted, lost with its host), is a miss: answered at once, no bytes moved, and counted.
//
// Metrics: the declared table kRequestsMetrics below (`llsim models` lists it). CSV: time_s,
// completed, failed (cumulative).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/metadata_queue.yaml --set phases.probe.count=1000
#include "sim/core/distribution.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/percentile.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/time_series.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/phase/phase.hpp"
#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/memory_pool.hpp"
#include "sim/svc/metadata.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace llsim {

namespace {

constexpr double kNoDeadline = std::numeric_limits<double>::infinity();

const ParamTable kRequestsParams = {
    ParamSpec::text("clients", "group whose hosts issue the requests (round-robin)"),
    ParamSpec::text("service", "the metadata, storage or memory_pool service to load"),
    ParamSpec::text("op", "metadata: mkdir create open stat readdir unlink close; storage: read write; "
                          "memory_pool: put get"),
    ParamSpec::integer("count", "number of requests").at_least(1).at_most(1e8),
    ParamSpec::distribution("arrival", Dimension::Duration, "time between two arrivals (absent: all at the start)")
        .at_least(0)
        .may_be_absent(),
    ParamSpec::quantity("bytes", Dimension::Size,
                        "storage and memory_pool: bytes of one request (a storage read: at most this much of "
                        "the key's file, 0: all of it)")
        .defaults("0B")
        .at_least(0),
    ParamSpec::integer("keys", "distinct paths, files or blocks (request i uses key i mod keys)")
        .defaults("1")
        .at_least(1),
    ParamSpec::quantity("sample_period", Dimension::Duration, "time between rows of the phase CSV")
        .defaults("1s")
        .positive(),
};

class RequestsPhase : public Phase {
 public:
  RequestsPhase(const Params& p, const PhaseLoadContext& c)
      : name_(c.phase_name)
      , clients_(c.platform.group_param(p, "clients"))
      , count_(p.integer("count"))
      , bytes_(p.quantity("bytes"))
      , keys_(p.integer("keys"))
      , sample_period_s_(p.quantity("sample_period"))
  {
    c.uses.push_back(clients_.name);
    const std::string op   = p.text("op");
    const std::string kind = c.services.kind_of(p, "service");
    // The service's kind decides which operations make sense.
    if (kind == MetadataService::kKind) {
      metadata_ = &c.services.get<MetadataService>(p, "service");
      if (!parse_meta_op(op, &meta_op_))
        p.fail("op", "a metadata service serves mkdir, create, open, stat, readdir, unlink or close, not '" + op + "'");
    } else if (kind == StorageService::kKind) {
      storage_ = &c.services.get<StorageService>(p, "service");
      if (op != "read" && op != "write")
        p.fail("op", "a storage service serves read or write, not '" + op + "'");
      write_ = op == "write";
    } else if (kind == MemoryPool::kKind) {
      pool_ = &c.services.get<MemoryPool>(p, "service");
      if (op != "put" && op != "get")
        p.fail("op", "a memory_pool service serves put or get, not '" + op + "'");
      write_ = op == "put";
    } else {
      p.fail("service", "service '" + p.text("service") + "' is a " + kind +
                            " service; requests load a metadata, storage or memory_pool service");
    }
    if ((storage_ || pool_) && !(bytes_ > 0) && write_)
      p.fail("bytes", "a " + op + " needs bytes > 0");
    Rng rng            = Rng::stream(c.seed, "phase." + name_ + ".arrivals");
    const auto arrival = p.has("arrival") ? p.distribution("arrival") : nullptr;
    double clock       = 0;
    for (int64_t i = 0; i < count_; ++i) {
      arrivals_.push_back(clock);
      if (arrival)
        clock += arrival->sample(rng);
    }
  }

  void run(PhaseRuntime& runtime) override
  {
    series_ = std::make_unique<TimeSeries>(std::vector<std::string>{"completed", "failed"}, sample_period_s_);
    const double start = now();
    series_->add(0, 0, start);
    // A member: the last answer's notification may still be under way when run() returns (a
    // storage miss answers without simulated time).
    all_over_ = std::make_unique<WaitPoint>();
    for (int64_t i = 0; i < count_; ++i) {
      sleep_until(start + arrivals_[static_cast<size_t>(i)]);
      const HostId client  = clients_.host(i % clients_.count);
      const double arrived = now();
      const auto answered  = [this, arrived](bool ok) {
        (ok ? latencies_ : failed_latencies_).push_back(now() - arrived);
        series_->add(ok ? 0 : 1, 1, now());
        over_ += 1;
        all_over_->notify_all();
      };
      if (metadata_) {
        metadata_->call_async(client, meta_op_, path(i % keys_), 1, false, answered);
        continue;
      }
      start_actor(runtime.platform, client, "request", runtime.label,
                  [this, i, client, answered] { answered(issue(client, i % keys_)); });
    }
    all_over_->wait_until([this] { return over_ == static_cast<size_t>(count_); }, kNoDeadline);
    span_s_ = now() - start;
    series_->finish(now());
  }

  Metrics metrics() const override
  {
    std::vector<double> sorted = latencies_;
    std::sort(sorted.begin(), sorted.end());
    double sum = 0;
    for (double l : sorted)
      sum += l;
    const double completed = static_cast<double>(sorted.size());
    return {{"requests", static_cast<double>(count_)},
            {"completed", completed},
            {"failed", static_cast<double>(failed_latencies_.size())},
            {"mean_latency_s", sorted.empty() ? NAN : sum / completed},
            {"p50_latency_s", sorted.empty() ? NAN : percentile(sorted, 0.50)},
            {"p95_latency_s", sorted.empty() ? NAN : percentile(sorted, 0.95)},
            {"p99_latency_s", sorted.empty() ? NAN : percentile(sorted, 0.99)},
            {"throughput_ops", span_s_ > 0 ? completed / span_s_ : 0},
            {"hits", hits_},
            {"misses", misses_}};
  }

  std::vector<OutputTable> tables() const override
  {
    if (!series_)
      return {};
    return {{"", series_->table()}};
  }

 private:
  // Keys do not depend on the phase: a phase gets the blocks another one put, and reads the
  // files another one wrote.
  static std::string path(int64_t key) { return "/key" + std::to_string(key); }

  // A storage or memory_pool request, from an actor on the client host.
  bool issue(HostId client, int64_t key)
  {
    if (pool_) {
      const PoolResult r =
          write_ ? pool_->put(client, path(key), bytes_, kNoDeadline) : pool_->get(client, path(key), kNoDeadline);
      hits_ += r == PoolResult::Hit ? 1 : 0;
      misses_ += r == PoolResult::Miss ? 1 : 0;
      return r != PoolResult::Failed && r != PoolResult::Rejected;
    }
    const FileId* known = storage_->named(path(key));
    if (!write_) {
      const double held = known ? storage_->file_B(*known) : 0;
      if (!(held > 0)) {  // no phase has written the key's file (yet)
        misses_ += 1;
        return true;
      }
      const bool ok = storage_->read(client, *known, 0, bytes_ > 0 ? std::min(bytes_, held) : held, kNoDeadline).ok();
      hits_ += ok ? 1 : 0;
      return ok;
    }
    if (known)  // a write replaces the key's file (truncate and rewrite)
      storage_->remove(*known);
    const FileId file = storage_->new_file();
    storage_->set_name(path(key), file);
    const IoOutcome o = storage_->write(client, file, 0, bytes_, kNoDeadline);
    if (o.status == IoStatus::NoSpace)
      throw SimulationError(o.message);
    return o.ok();
  }

  std::string name_;
  const GroupSpec& clients_;
  int64_t count_;
  double bytes_;
  int64_t keys_;
  double sample_period_s_;
  MetadataService* metadata_ = nullptr;
  MetaOp meta_op_            = MetaOp::Stat;
  StorageService* storage_   = nullptr;
  MemoryPool* pool_          = nullptr;
  bool write_                = false;
  std::vector<double> arrivals_;
  std::unique_ptr<TimeSeries> series_;
  std::unique_ptr<WaitPoint> all_over_;
  size_t over_ = 0;  // requests answered
  std::vector<double> latencies_, failed_latencies_;
  double span_s_ = 0, hits_ = 0, misses_ = 0;
};

// What metrics() writes, in its order (sim/core/metrics.hpp; `llsim models` lists it).
const MetricTable kRequestsMetrics = {
    {"requests", MetricUnit::Count, "requests issued (count)"},
    {"completed", MetricUnit::Count, "requests answered successfully"},
    {"failed", MetricUnit::Count,
     "requests that failed: their client or server host down, or a memory_pool put rejected"},
    {"mean_latency_s", MetricUnit::Seconds,
     "mean time from arrival to reply of the completed requests, network included (null when none completed)"},
    {"p50_latency_s", MetricUnit::Seconds, "median of the same (null when none completed)"},
    {"p95_latency_s", MetricUnit::Seconds, "95th percentile of the same (null when none completed)"},
    {"p99_latency_s", MetricUnit::Seconds, "99th percentile of the same (null when none completed)"},
    {"throughput_ops", MetricUnit::PerSecond,
     "completed requests per second, from the first arrival to the last reply"},
    {"hits", MetricUnit::Count,
     "memory_pool gets that found their block, storage reads that read their key's file (0 for writes, puts and "
     "metadata)"},
    {"misses", MetricUnit::Count,
     "memory_pool gets and storage reads of a key no phase had written (or whose block was evicted or lost): "
     "answered at once, no bytes moved (0 for writes, puts and metadata)"},
};

}  // namespace

LLSIM_REGISTER(Phase, "requests", RequestsPhase, "a synthetic open-loop load on one service", kRequestsParams);
LLSIM_DECLARE_METRICS(Phase, "requests", kRequestsMetrics);

}  // namespace llsim
