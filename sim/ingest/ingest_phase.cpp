// Phase kind `ingest`: client ranks run a metadata workload against a metadata service and write
// each file's bytes to a storage service (sim/ingest/ingest_run.hpp).
//
//   - name: crawl
//     kind: ingest
//     clients: cpu                  group of client hosts
//     ranks: 16                     processes per client host
//     metadata: mds                 a metadata service (its `model` decides placement and RPCs)
//     storage: pfs                  a storage service for file bytes (absent: bytes not written)
//     cache: {entries: 10000, ttl: 30s}   each client host's cache of resolved directories
//     scale: 1                      each simulated file stands for `scale` identical ones
//     workload: {impl: mdtest, pattern: easy, files_per_rank: 1000}   or tree, or trace
//     sample_period: 1s             time buckets of <phase>_servers.csv
//
// Scale k: every RPC of a rank stands for k identical operations of that rank, served back to
// back by one thread and crossing the network one after another; its data write carries k
// files' bytes; counts, bytes and capacity are exact (k times the simulated ones). What it
// preserves: a rank's k operations are sequential in reality too, so throughput and mean latency
// agree with k = 1 whenever queues are short. What it does not: a server sees one request of k
// operations instead of k requests interleaved with other ranks', so queueing delays and tail
// latencies at high load come out burstier (larger) than with k = 1; latency percentiles tend
// to the mean (a simulated operation's time is the sum of k service times, divided by k); a
// cache miss costs one lookup per k files; directories are scaled like files (k copies of the
// tree).
//
// Metrics: the declared table kIngestMetrics below (`llsim models` lists it).
// CSVs: <phase>_servers.csv (RPCs per server and time bucket), <phase>_latency.csv (a latency
// histogram per operation type, 10 bins per decade), <phase>_steps.csv (each step's rate).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/ingest_mdtest.yaml
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/ingest/ingest_run.hpp"
#include "sim/phase/phase.hpp"
#include "sim/phase/work_units.hpp"
#include "sim/sg/clock.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/metadata.hpp"
#include "sim/svc/storage.hpp"

#include <memory>

namespace llsim {

namespace {

const ParamTable kCacheParams = {
    ParamSpec::integer("entries", "directories a client host keeps resolved (0: no cache; assumption)")
        .defaults("10000")
        .at_least(0)
        .at_most(1e8),
    ParamSpec::quantity("ttl", Dimension::Duration, "how long a resolved directory is trusted (assumption)")
        .defaults("30s")
        .at_least(0),
};

const ParamTable kIngestParams = {
    ParamSpec::text("clients", "group whose hosts run the client ranks"),
    ParamSpec::integer("ranks", "client processes per host").defaults("1").at_least(1).at_most(100000),
    ParamSpec::text("metadata", "the metadata service"),
    ParamSpec::text("storage", "the storage service file bytes go to (absent: bytes are not written)").may_be_absent(),
    ParamSpec::section("cache", "each client host's cache of resolved directories {entries, ttl}")
        .defaults("{}")
        .with_fields(kCacheParams),
    ParamSpec::integer("scale", "real files (and operations) each simulated one stands for")
        .defaults("1")
        .at_least(1)
        .at_most(1e9),
    ParamSpec::choice<IngestWorkload>("workload", "what the ranks do {impl, ...}"),
    ParamSpec::quantity("sample_period", Dimension::Duration, "time buckets of <phase>_servers.csv")
        .defaults("1s")
        .at_least(1e-3),
};

class IngestPhase : public Phase {
 public:
  IngestPhase(const Params& p, const PhaseLoadContext& c)
      : name_(c.phase_name)
      , sample_period_s_(p.quantity("sample_period"))
  {
    setup_.clients = &c.platform.group_param(p, "clients");
    c.uses.push_back(setup_.clients->name);
    setup_.ranks_per_host = p.integer("ranks");
    setup_.scale          = p.integer("scale");
    setup_.metadata       = &c.services.get<MetadataService>(p, "metadata");
    if (p.has("storage"))
      setup_.storage = &c.services.get<StorageService>(p, "storage");
    const Params cache   = p.section("cache", kCacheParams);
    setup_.cache_entries = static_cast<size_t>(cache.integer("entries"));
    setup_.cache_ttl_s   = cache.quantity("ttl");
    const int64_t ranks  = setup_.clients->count * setup_.ranks_per_host;
    if (ranks > 10000000)
      p.fail("ranks", std::to_string(ranks) + " client ranks in all; at most 10 million");
    workload_ = Registry<IngestWorkload>::create(p.raw("workload"), {ranks, c.seed, "phase." + name_ + ".workload"});
    setup_.workload = workload_.get();
  }

  void run(PhaseRuntime& runtime) override
  {
    MetadataService& mds  = *setup_.metadata;
    tally_                = std::make_unique<IngestTally>(static_cast<size_t>(mds.servers().count), sample_period_s_,
                                           static_cast<double>(setup_.scale));
    const double journal0 = mds.journal_B(), home0 = mds.home_write_B();
    const double start      = now();
    run_                    = std::make_unique<IngestRun>(setup_, runtime.timer, *tally_);
    const std::string error = run_->run();
    if (!error.empty())
      throw SimulationError(error);
    makespan_s_ = now() - start;
    tally_->finish(now());
    metadata_B_   = mds.metadata_B();
    max_server_B_ = mds.max_server_metadata_B();
    journal_B_    = mds.journal_B() - journal0;
    home_B_       = mds.home_write_B() - home0;
  }

  Metrics metrics() const override
  {
    Metrics m        = tally_ ? tally_->metrics() : Metrics{};
    const double ops = tally_ ? tally_->ops() : 0;
    m.insert(m.begin() + 2, {"makespan_s", makespan_s_});
    m.insert(m.begin() + 3, {"ops_per_s", makespan_s_ > 0 ? ops / makespan_s_ : 0});
    m.push_back({"metadata_bytes", metadata_B_});
    m.push_back({"max_server_metadata_bytes", max_server_B_});
    m.push_back({"journal_bytes", journal_B_});
    m.push_back({"home_write_bytes", home_B_});
    return m;
  }

  std::vector<OutputTable> tables() const override
  {
    if (!tally_)
      return {};
    return {
        {"servers", tally_->servers_table()}, {"latency", tally_->latency_table()}, {"steps", tally_->steps_table()}};
  }

 private:
  std::string name_;
  double sample_period_s_;
  IngestSetup setup_;
  std::unique_ptr<IngestWorkload> workload_;
  std::unique_ptr<IngestTally> tally_;
  std::unique_ptr<IngestRun> run_;  // outlives run(): replies still on their way refer to it
  double makespan_s_ = 0, metadata_B_ = 0, max_server_B_ = 0, journal_B_ = 0, home_B_ = 0;
};

// What metrics() writes, in its order (sim/core/metrics.hpp; `llsim models` lists it).
const MetricTable kIngestMetrics = {
    {"ops", MetricUnit::Count, "metadata operations done (real ones: scale per simulated one)"},
    {"files", MetricUnit::Count, "files created"},
    {"makespan_s", MetricUnit::Seconds, "time from the phase's start until every rank is done"},
    {"ops_per_s", MetricUnit::PerSecond, "ops / makespan_s (0 when the makespan is 0)"},
    {"files_removed", MetricUnit::Count, "files unlinked"},
    {"mean_latency_s", MetricUnit::Seconds,
     "mean time of one real operation, issue to reply (a simulated operation's time / scale; 0 when none ran)"},
    {"p50_latency_s", MetricUnit::Seconds, "median of the same (0 when none ran)"},
    {"p99_latency_s", MetricUnit::Seconds, "99th percentile of the same (0 when none ran)"},
    {"rpcs_per_op", MetricUnit::Number,
     "RPCs sent per operation (the metadata model's cost, directory lookups of cache misses included)"},
    {"max_server_share", MetricUnit::Ratio, "the busiest metadata server's share of the phase's RPCs"},
    {"data_bytes", MetricUnit::Bytes, "bytes of the files created (written to `storage` when given)"},
    {"metadata_bytes", MetricUnit::Bytes, "bytes of inodes the metadata service holds at the phase's end"},
    {"max_server_metadata_bytes", MetricUnit::Bytes, "the most bytes of inodes one of its servers holds then"},
    {"journal_bytes", MetricUnit::Bytes,
     "bytes the metadata service journalled while the phase ran, other phases' operations included (0 without a "
     "journal)"},
    {"home_write_bytes", MetricUnit::Bytes,
     "bytes its journal checkpoints wrote while the phase ran, other phases' operations included (0 without a "
     "journal)"},
};

}  // namespace

LLSIM_REGISTER(Phase, "ingest", IngestPhase, "client ranks run a metadata workload", kIngestParams);
LLSIM_DECLARE_METRICS(Phase, "ingest", kIngestMetrics);
LLSIM_DECLARE_WORK_UNITS("ingest", {{"files", 1e6, "M_files", "a million files created"},
                                    {"data_bytes", 1e12, "TB", "a TB of their bytes"}});

}  // namespace llsim
