// Phase kind `preprocess`: a cluster deduplicates a corpus with MinHash-LSH, stage after stage,
// each stage's tasks on the master-worker runtime (sim/mw) with any registered scheduler.
//
//   - name: dedup
//     kind: preprocess
//     workers: cluster              a worker runs one task at a time on all its cores; the
//                                   driver runs on the first (its messages take no time)
//     storage: hdfs                 the storage service holding the corpus
//     scratch: local                a storage service whose servers are the workers (their disks)
//     corpus: {documents: 1M, bytes: 4GB, files: 1000}     one file per partition
//     from_phase: crawl             or: the corpus an ingest phase wrote (its files, one document
//                                   each, and data bytes; list it in `after`); give only files
//     placement: {impl: striped}                striped: file i on server i mod servers;
//                                               replicated: also on the next replicas-1 servers
//                                               (models/corpus_placement/)
//     engine: {impl: data_centric}              or compute_centric (models/preprocess_engine/)
//     scheduler: {impl: locality}               any task scheduler
//     minhash: {bands: 14, rows: 8, key_bytes: 8, id_bytes: 8}
//     duplicates: {fraction: 0.1, similarity: {dist: uniform, min: 0.5, max: 1}}
//     reducers: 0                   lsh_shuffle tasks (0: one per worker)
//     fan_in: 16                    map outputs a reducer fetches from
//     executor_memory: 16GiB        per task; beyond it, memory is spilled to the worker's disks
//     pipeline: [read, minhash, lsh_shuffle, cluster, filter_write]   or the first ones
//     stages: {read: {per_byte: 10ns, ...}, minhash: {...}, lsh_shuffle: {...}, cluster: {...},
//              filter_write: {...}}
//
// The work of each stage is sim/preprocess/dedup_job.hpp, the placement of the corpus and the
// tasks of each stage sim/preprocess/preprocess_run.hpp. Stages run one after another (a
// stage's outputs are all written before the next starts). A partition's task reads its corpus
// file from the storage service: from the worker's own disks when it holds a copy (unless the
// engine pulls remotely), else over the network. Outputs go to the workers' disks (scratch),
// where the next stage reads them (locally when it runs on the same worker), except
// filter_write's, which go to the storage service (onto the worker's own disks when it is one
// of the service's servers, as HDFS places a first replica), named <phase>/output/part-00000 ...
// there for a train phase's `data.dataset`. A reducer reads its share of the band records from
// `fan_in` map outputs, one after another.
//
// Documents removed: a fraction `duplicates.fraction` of the documents are near-duplicates of
// another one, with a Jaccard similarity drawn from `duplicates.similarity`; each is found with
// probability 1 - (1 - s^r)^b (sim/preprocess/minhash_lsh.hpp), averaged over 100,000 draws.
// documents_removed is a whole count drawn with the scenario's seed (a binomial draw over the
// near-duplicates), documents_removed_expected its expectation, which the stages' costs use.
// Both are 0 when the pipeline stops before `cluster`, and shuffle_bytes before `lsh_shuffle`.
//
// Metrics: the declared table kPreprocessMetrics below (`llsim models` lists it).
// CSVs: <phase>_stages.csv (stage, tasks, start, end, input and output bytes) and
// <phase>_nodes.csv (every `sample_period` and at each stage's start and end: each worker's
// state, idle, busy or down).
//
// Failures: workers fail through the scenario's fault models; the driver notices after
// `failure_timeout` and runs the lost task again. When a node fails more often than that
// timeout, the driver's view is mostly stale and tasks keep landing on nodes that are down: the
// makespan grows by many timeouts (mtbf 1 s, timeout 10 s: hours for a job of a second). A task
// that fails `give_up_after` times in a row (nodes failing faster than it runs) stops the run.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/preprocess_dedup.yaml
#include "sim/core/distribution.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/mw/task_scheduler.hpp"
#include "sim/phase/phase.hpp"
#include "sim/phase/work_units.hpp"
#include "sim/preprocess/corpus_placement.hpp"
#include "sim/preprocess/minhash_lsh.hpp"
#include "sim/preprocess/preprocess_run.hpp"
#include "sim/sg/clock.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>
#include <memory>

namespace llsim {

namespace {

const ParamTable kCorpusParams = {
    ParamSpec::quantity("documents", Dimension::Count, "documents in the corpus (absent with from_phase)")
        .may_be_absent()
        .positive(),
    ParamSpec::quantity("bytes", Dimension::Size, "bytes of the corpus (absent with from_phase)")
        .may_be_absent()
        .positive(),
    ParamSpec::integer("files", "files (partitions) of the corpus").at_least(1).at_most(10000000),
};

const ParamTable kMinhashParams = {
    ParamSpec::integer("bands", "b (datatrove: 14)").defaults("14").at_least(1).at_most(1000),
    ParamSpec::integer("rows", "r (datatrove: 8)").defaults("8").at_least(1).at_most(1000),
    ParamSpec::quantity("key_bytes", Dimension::Size, "bytes of a band key").defaults("8B").positive(),
    ParamSpec::quantity("id_bytes", Dimension::Size, "bytes of a document id (a band record is key + id)")
        .defaults("8B")
        .positive(),
};

const ParamTable kDuplicateParams = {
    ParamSpec::quantity("fraction", Dimension::Number,
                        "documents that are near-duplicates of an original (which "
                        "is not one: at most half)")
        .defaults("0.1")
        .at_least(0)
        .at_most(0.5),
    ParamSpec::distribution("similarity", Dimension::Number, "Jaccard similarity of a near-duplicate to its original")
        .defaults("{dist: uniform, min: 0.5, max: 1}")
        .at_least(0),
};

// Default costs are assumptions (datatrove publishes only its 0.8 MB/s per signature
// task, reading included): read 100 MB/s and filter 500 MB/s per core, MinHash 56 ns per byte
// (112 hashes per 4-byte token at 2 ns), 200 ns per band record, 1 us per candidate pair.
ParamTable stage_params(const char* per_byte, const char* per_item, const char* item, const char* memory,
                        const char* output_ratio = nullptr)
{
  ParamTable t = {
      ParamSpec::quantity("per_byte", Dimension::Duration, "core time per input byte (assumption)")
          .defaults(per_byte)
          .at_least(0),
      ParamSpec::quantity("per_item", Dimension::Duration, std::string("core time per ") + item + " (assumption)")
          .defaults(per_item)
          .at_least(0),
      ParamSpec::quantity("memory_per_item", Dimension::Size, std::string("memory per ") + item + " held (assumption)")
          .defaults(memory)
          .at_least(0),
  };
  // The other stages' outputs are their records (band records, candidate pairs, ids).
  if (output_ratio)
    t.push_back(ParamSpec::quantity("output_ratio", Dimension::Number,
                                    "output bytes per input byte (read: parsed "
                                    "text; filter_write: written per surviving byte)")
                    .defaults(output_ratio)
                    .at_least(0));
  return t;
}

const ParamTable& read_params()
{
  static const ParamTable t = stage_params("10ns", "0s", "document", "16KB", "1");
  return t;
}
const ParamTable& minhash_params()
{
  static const ParamTable t = stage_params("56ns", "0s", "document", "4KB");
  return t;
}
const ParamTable& shuffle_params()
{
  static const ParamTable t = stage_params("0s", "200ns", "band record", "32B");
  return t;
}
const ParamTable& cluster_params()
{
  static const ParamTable t = stage_params("0s", "1us", "candidate pair", "32B");
  return t;
}
const ParamTable& filter_params()
{
  static const ParamTable t = stage_params("2ns", "0s", "document", "16KB", "1");
  return t;
}

const ParamTable& stages_params()
{
  static const ParamTable t = {
      ParamSpec::section("read", "decompress and parse").defaults("{}").with_fields(read_params()),
      ParamSpec::section("minhash", "shingles and K = b r hashes").defaults("{}").with_fields(minhash_params()),
      ParamSpec::section("lsh_shuffle", "band records grouped by key").defaults("{}").with_fields(shuffle_params()),
      ParamSpec::section("cluster", "union-find over candidate pairs").defaults("{}").with_fields(cluster_params()),
      ParamSpec::section("filter_write", "survivors written back").defaults("{}").with_fields(filter_params()),
  };
  return t;
}

const ParamTable kPreprocessParams = {
    ParamSpec::text("workers", "group whose hosts run the tasks"),
    ParamSpec::text("storage", "storage service holding the corpus"),
    ParamSpec::text("scratch", "storage service on the workers' own disks (its servers are the workers)"),
    ParamSpec::section("corpus", "{documents, bytes, files}").with_fields(kCorpusParams),
    ParamSpec::text("from_phase", "an ingest phase (listed in after) whose files, one document each, and data bytes "
                                  "are the corpus, already on the storage service")
        .may_be_absent(),
    ParamSpec::choice<CorpusPlacement>("placement", "where the corpus files' copies lie {impl, ...}")
        .defaults("{impl: striped}"),
    ParamSpec::choice<PreprocessEngine>("engine", "the execution engine {impl, ...}").defaults("{impl: data_centric}"),
    ParamSpec::choice<TaskScheduler>("scheduler", "the task scheduler {impl, ...}").defaults("{impl: locality}"),
    ParamSpec::section("minhash", "{bands, rows, key_bytes, id_bytes}").defaults("{}").with_fields(kMinhashParams),
    ParamSpec::section("duplicates", "{fraction, similarity}").defaults("{}").with_fields(kDuplicateParams),
    ParamSpec::integer("reducers", "lsh_shuffle tasks (0: one per worker)").defaults("0").at_least(0).at_most(10000000),
    ParamSpec::integer("fan_in", "map outputs each reducer reads its share from")
        .defaults("16")
        .at_least(1)
        .at_most(100000),
    ParamSpec::quantity("executor_memory", Dimension::Size,
                        "memory a task may hold; beyond it spills to disk "
                        "(absent: the workers' memory, else 16 GiB)")
        .may_be_absent()
        .positive(),
    ParamSpec::text_list("pipeline", "the stages run: read, minhash, lsh_shuffle, cluster, filter_write or the "
                                     "first ones of them, in that order")
        .defaults("[read, minhash, lsh_shuffle, cluster, filter_write]"),
    ParamSpec::section("stages", "costs of the five stages").defaults("{}").with_fields(stages_params()),
    ParamSpec::quantity("failure_timeout", Dimension::Duration, "time for the driver to notice a worker is gone")
        .defaults("10s")
        .at_least(0),
    ParamSpec::integer("give_up_after", "failed attempts in a row of one task that stop the run (it cannot progress)")
        .defaults("1000")
        .at_least(1),
    ParamSpec::quantity("sample_period", Dimension::Duration, "time between rows of <phase>_nodes.csv")
        .defaults("1s")
        .at_least(1e-3),
};

StageCost stage_cost(const Params& p)
{
  return {p.quantity("per_byte"), p.quantity("per_item"), p.quantity("memory_per_item"),
          p.has("output_ratio") ? p.quantity("output_ratio") : 1.0};
}

class PreprocessPhase : public Phase {
 public:
  PreprocessPhase(const Params& p, const PhaseLoadContext& c)
  {
    PreprocessSetup& s = setup_;
    s.name             = c.phase_name;
    s.workers          = &c.platform.group_param(p, "workers");
    s.storage          = &c.services.get<StorageService>(p, "storage");
    s.storage->names().promise(output_path(c.phase_name));  // the output a train phase may read
    s.scratch                = &c.services.get<StorageService>(p, "scratch");
    s.fan_in                 = p.integer("fan_in");
    s.failure_timeout_s      = p.quantity("failure_timeout");
    s.sample_period_s        = p.quantity("sample_period");
    s.sample_period_at       = p.located("sample_period");
    s.give_up_after          = p.integer("give_up_after");
    s.source_key             = Rng::stream_key(c.seed, "phase." + c.phase_name + ".sources");
    const GroupSpec& workers = *s.workers;
    c.claims.push_back({workers.name, p.raw("workers")});
    if (s.scratch->servers().name != workers.name)
      p.fail("scratch", "the scratch service's servers must be the workers (group '" + workers.name + "'), not '" +
                            s.scratch->servers().name + "'");
    read_corpus(p, c);
    placement_ = Registry<CorpusPlacement>::create(p.raw("placement"), {s.storage->servers().count, s.storage->name()});
    s.placement   = placement_.get();
    s.replicas    = placement_->copies();
    engine_       = Registry<PreprocessEngine>::create(p.raw("engine"), {});
    s.spec.engine = engine_->traits();
    if (s.spec.engine.pull_remote && s.storage->servers().name == workers.name && s.replicas < 2)
      p.fail("engine", "this engine reads the corpus over the network, but every file's only copy is on a worker: "
                       "give placement {impl: replicated, replicas: 2} or more, or a storage service on other hosts");
    scheduler_                = Registry<TaskScheduler>::create(p.raw("scheduler"), {});
    s.scheduler               = scheduler_.get();
    const Params mh           = p.section("minhash", kMinhashParams);
    s.spec.bands              = static_cast<int>(mh.integer("bands"));
    s.spec.rows               = static_cast<int>(mh.integer("rows"));
    s.spec.key_B              = mh.quantity("key_bytes");
    s.spec.id_B               = mh.quantity("id_bytes");
    const int64_t reducers    = p.integer("reducers");
    s.spec.reducers           = reducers > 0 ? reducers : workers.count;
    const Params dup          = p.section("duplicates", kDuplicateParams);
    s.spec.duplicate_fraction = dup.quantity("fraction");
    s.spec.found_probability  = mean_found(dup, c.seed);
    removed_rng_              = Rng::stream(c.seed, "phase." + c.phase_name + ".removed");
    s.memory_B                = p.has("executor_memory") ? p.quantity("executor_memory")
                                : workers.memory_B > 0   ? workers.memory_B
                                                         : 16.0 * (1 << 30);
    read_pipeline(p);
    // A worker runs a task on all its cores: core time / cores at the group's mean core speed.
    s.flops_per_core_s = workers.speed->mean() / static_cast<double>(workers.cores);
  }

  void run(PhaseRuntime& runtime) override
  {
    const double start    = now();
    const DedupSpec& spec = setup_.spec;
    if (!from_phase_.empty())
      take_corpus(runtime.metrics_of(from_phase_));
    if (static_cast<double>(spec.files) > spec.documents || static_cast<double>(spec.reducers) > spec.documents)
      throw SimulationError("phase '" + setup_.name + "': " + std::to_string(spec.files) + " files and " +
                            std::to_string(spec.reducers) + " reducers for " + format_number(spec.documents) +
                            " documents: give at most one file and one reducer per document");
    PreprocessRun stages(setup_);
    stages.run(runtime);
    totals_     = stages.totals();
    makespan_s_ = now() - start;
    removed_    = DedupJob(spec).draw_removed(removed_rng_);
  }

  std::vector<GroupUse> usage() const override { return {{setup_.workers->name, std::nullopt, totals_.busy_s, {}}}; }

  Metrics metrics() const override
  {
    const DedupJob job(setup_.spec);
    const double workers      = static_cast<double>(setup_.workers->count);
    const PreprocessTotals& t = totals_;
    return {{"documents", setup_.spec.documents},
            {"bytes", setup_.spec.bytes},
            {"makespan_s", makespan_s_},
            {"bytes_read_local", t.read_local},
            {"bytes_read_remote", t.read_remote},
            {"network_bytes", t.read_remote + t.scratch_remote + t.written_remote},
            {"shuffle_bytes", job.reported_shuffle_B()},
            {"spill_bytes", t.spill},
            {"peak_memory_bytes", t.peak_memory},
            {"documents_removed", static_cast<double>(removed_)},
            {"documents_removed_expected", job.reported_expected_removed()},
            {"cpu_utilization", makespan_s_ > 0 ? t.busy_s / (workers * makespan_s_) : 0},
            {"tasks", t.tasks},
            {"reexecutions", t.reexecutions}};
  }

  std::vector<OutputTable> tables() const override { return {{"stages", totals_.stages}, {"nodes", totals_.nodes}}; }

 private:
  // The corpus: its files, and its documents and bytes given or (from_phase) an ingest phase's.
  void read_corpus(const Params& p, const PhaseLoadContext& c)
  {
    const Params corpus = p.section("corpus", kCorpusParams);
    setup_.spec.files   = corpus.integer("files");
    if (p.has("from_phase")) {
      from_phase_           = p.text("from_phase");
      setup_.corpus_written = !from_phase_.empty();
      if (std::find(c.after.begin(), c.after.end(), from_phase_) == c.after.end())
        p.fail("from_phase", "list '" + from_phase_ + "' in this phase's `after` too: its corpus must exist first");
      if (corpus.has("documents") || corpus.has("bytes"))
        corpus.fail("documents", "with from_phase, the documents and bytes are the ingest phase's; give only files");
    } else {
      if (!corpus.has("documents") || !corpus.has("bytes"))
        corpus.fail("documents", "give documents and bytes (or name an ingest phase in from_phase)");
      setup_.spec.documents = corpus.quantity("documents");
      setup_.spec.bytes     = corpus.quantity("bytes");
    }
  }

  // The stages run and their costs.
  void read_pipeline(const Params& p)
  {
    const std::vector<std::string> order    = {"read", "minhash", "lsh_shuffle", "cluster", "filter_write"};
    const std::vector<std::string> pipeline = p.text_list("pipeline");
    if (pipeline.empty() || pipeline.size() > order.size() ||
        !std::equal(pipeline.begin(), pipeline.end(), order.begin()))
      p.fail("pipeline", "expected read, minhash, lsh_shuffle, cluster, filter_write or the first ones of them, in "
                         "that order (each stage needs the one before)");
    DedupSpec& spec = setup_.spec;
    spec.stages     = static_cast<int>(pipeline.size());
    const Params st = p.section("stages", stages_params());
    spec.read       = stage_cost(st.section("read", read_params()));
    spec.minhash    = stage_cost(st.section("minhash", minhash_params()));
    spec.shuffle    = stage_cost(st.section("lsh_shuffle", shuffle_params()));
    spec.cluster    = stage_cost(st.section("cluster", cluster_params()));
    spec.filter     = stage_cost(st.section("filter_write", filter_params()));
  }

  // The probability that a near-duplicate is found, averaged over its similarity distribution.
  double mean_found(const Params& dup, uint64_t seed) const
  {
    const auto similarity = dup.distribution("similarity");
    Rng rng               = Rng::stream(seed, "phase." + setup_.name + ".similarity");
    double sum            = 0;
    constexpr int kDraws  = 100000;
    for (int i = 0; i < kDraws; ++i) {
      const double s = similarity->sample(rng);
      if (s > 1)
        dup.fail("similarity", "a Jaccard similarity lies in [0, 1]; this distribution draws " + format_number(s));
      sum += MinHashLsh::candidate_probability(s, setup_.spec.bands, setup_.spec.rows);
    }
    return sum / kDraws;
  }

  // The corpus an ingest phase left: its files that remain, one document each, and their share of
  // its data bytes, which must be on this phase's storage service.
  void take_corpus(const Metrics& ingest)
  {
    double files = -1, removed = -1, bytes = -1;
    for (const auto& [name, value] : ingest) {
      files   = name == "files" ? value : files;
      removed = name == "files_removed" ? value : removed;
      bytes   = name == "data_bytes" ? value : bytes;
    }
    const std::string from = "phase '" + setup_.name + "': from_phase '" + from_phase_ + "'";
    if (files < 0 || removed < 0 || bytes < 0)
      throw SimulationError(from + " is not an ingest phase (it reports no files and data_bytes)");
    const double left = files - removed;
    if (!(left >= 1) || !(bytes > 0))
      throw SimulationError(from + " left no corpus (" + format_number(files) + " files created, " +
                            format_number(removed) + " removed, " + format_bytes(bytes) + " of data)");
    setup_.spec.documents         = left;
    setup_.spec.bytes             = bytes * left / files;
    const StorageService& storage = *setup_.storage;
    double held                   = 0;
    for (size_t t = 0; t < storage.targets(); ++t)
      held += storage.used(t);
    if (held + 1 < setup_.spec.bytes)
      throw SimulationError(from + " wrote " + format_bytes(setup_.spec.bytes, 6) + " of files, but storage service '" +
                            storage.name() + "' holds " + format_bytes(held, 6) +
                            ": did the ingest phase write them to another service?");
  }

  std::string from_phase_;
  PreprocessSetup setup_;
  std::unique_ptr<CorpusPlacement> placement_;
  std::unique_ptr<PreprocessEngine> engine_;
  std::unique_ptr<TaskScheduler> scheduler_;
  PreprocessTotals totals_;
  double makespan_s_ = 0;
  Rng removed_rng_{0};  // draws documents_removed
  int64_t removed_ = 0;
};

// What metrics() writes, in its order (sim/core/metrics.hpp; `llsim models` lists it).
const MetricTable kPreprocessMetrics = {
    {"documents", MetricUnit::Count, "documents of the corpus"},
    {"bytes", MetricUnit::Bytes, "bytes of the corpus"},
    {"makespan_s", MetricUnit::Seconds, "time from the phase's start until the last stage ends"},
    {"bytes_read_local", MetricUnit::Bytes, "corpus bytes read from the worker's own disks"},
    {"bytes_read_remote", MetricUnit::Bytes, "corpus bytes read over the network"},
    {"network_bytes", MetricUnit::Bytes,
     "bytes over the network: corpus read remotely, intermediate data read from another worker, and output written "
     "to the storage service from a worker that is not one of its servers"},
    {"shuffle_bytes", MetricUnit::Bytes,
     "bytes of band records the LSH shuffle moves: documents x bands x (key + id bytes); 0 when the pipeline stops "
     "before lsh_shuffle"},
    {"spill_bytes", MetricUnit::Bytes, "bytes tasks spilled to the workers' disks beyond executor_memory"},
    {"peak_memory_bytes", MetricUnit::Bytes, "the most memory one task held (at most executor_memory)"},
    {"documents_removed", MetricUnit::Count,
     "near-duplicates the cluster stage finds (filter_write drops them), a whole count drawn with the seed: each of "
     "the documents x fraction near-duplicates is found with the probability LSH finds one at its similarity; 0 "
     "when the pipeline stops before cluster"},
    {"documents_removed_expected", MetricUnit::Count,
     "the expectation of documents_removed: documents x fraction x that probability averaged over the "
     "similarity (the stages' costs use it); 0 when the pipeline stops before cluster"},
    {"cpu_utilization", MetricUnit::Ratio, "busy worker time / (workers x makespan)"},
    {"tasks", MetricUnit::Count, "tasks of all stages"},
    {"reexecutions", MetricUnit::Count, "task starts beyond each task's first (after a worker failure)"},
};

}  // namespace

LLSIM_REGISTER(Phase, "preprocess", PreprocessPhase, "MinHash-LSH deduplication of a corpus on a cluster",
               kPreprocessParams);
LLSIM_DECLARE_METRICS(Phase, "preprocess", kPreprocessMetrics);
LLSIM_DECLARE_WORK_UNITS("preprocess", {{"bytes", 1e12, "TB", "a TB of corpus deduplicated"}});

}  // namespace llsim
