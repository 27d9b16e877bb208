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
//     placement: {impl: striped, replicas: 3}   striped: file i on server i mod servers;
//                                               replicated: also on the next replicas-1 servers
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
// The work of each stage is sim/preprocess/dedup_job.hpp. Stages run one after another (a
// stage's outputs are all written before the next starts). A partition's task reads its corpus
// file from the storage service: from the worker's own disks when it holds a copy (unless the
// engine pulls remotely), else over the network. Outputs go to the workers' disks (scratch),
// where the next stage reads them (locally when it runs on the same worker), except
// filter_write's, which go to the storage service (onto the worker's own disks when it is one
// of the service's servers, as HDFS places a first replica). A reducer reads its share of the band
// records from `fan_in` map outputs, one after another.
//
// Documents removed: a fraction `duplicates.fraction` of the documents are near-duplicates of
// another one, with a Jaccard similarity drawn from `duplicates.similarity`; each is found with
// probability 1 - (1 - s^r)^b (sim/preprocess/minhash_lsh.hpp), averaged over 100,000 draws.
//
// Metrics: the declared table kPreprocessMetrics below (`llsim models` lists it).
// CSVs: <phase>_stages.csv (stage, tasks, start, end, input and output bytes) and
// <phase>_nodes.csv (every `sample_period` and at each stage's start and end: each worker's
// state, idle, busy or down).
//
// Failures: workers fail through the scenario's fault models; the driver notices after
// `failure_timeout` and runs the lost task again. When a node fails more often than that
// timeout, the driver's view is mostly stale and tasks keep landing on nodes that are down: the
// makespan grows by many timeouts (mtbf 1 s, timeout 10 s: hours for a job of a second).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/preprocess_dedup.yaml
#include "sim/core/distribution.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/mw/master_worker.hpp"
#include "sim/mw/task_checkpointing.hpp"
#include "sim/phase/phase.hpp"
#include "sim/preprocess/dedup_job.hpp"
#include "sim/preprocess/minhash_lsh.hpp"
#include "sim/sg/clock.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

namespace llsim {

namespace {

const ParamTable kCorpusParams = {
    ParamSpec::quantity("documents", Dimension::Count, "documents in the corpus (absent with from_phase)")
        .may_be_absent()
        .positive(),
    ParamSpec::quantity("bytes", Dimension::Size, "bytes of the corpus (absent with from_phase)").may_be_absent().positive(),
    ParamSpec::integer("files", "files (partitions) of the corpus").at_least(1).at_most(10000000),
};

const ParamTable kPlacementParams = {
    ParamSpec::text("impl", "striped (one copy per file) or replicated").defaults("striped"),
    ParamSpec::integer("replicas", "copies of each file when replicated").defaults("3").at_least(1).at_most(100),
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
    ParamSpec::quantity("fraction", Dimension::Number, "documents that are near-duplicates of an original (which "
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
    t.push_back(ParamSpec::quantity("output_ratio", Dimension::Number, "output bytes per input byte (read: parsed "
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
    ParamSpec::section("placement", "{impl: striped | replicated, replicas}").defaults("{}").with_fields(kPlacementParams),
    ParamSpec::choice<PreprocessEngine>("engine", "the execution engine {impl, ...}").defaults("{impl: data_centric}"),
    ParamSpec::choice<TaskScheduler>("scheduler", "the task scheduler {impl, ...}")
        .defaults("{impl: locality}"),
    ParamSpec::section("minhash", "{bands, rows, key_bytes, id_bytes}").defaults("{}").with_fields(kMinhashParams),
    ParamSpec::section("duplicates", "{fraction, similarity}").defaults("{}").with_fields(kDuplicateParams),
    ParamSpec::integer("reducers", "lsh_shuffle tasks (0: one per worker)").defaults("0").at_least(0).at_most(10000000),
    ParamSpec::integer("fan_in", "map outputs each reducer reads its share from").defaults("16").at_least(1).at_most(100000),
    ParamSpec::quantity("executor_memory", Dimension::Size, "memory a task may hold; beyond it spills to disk "
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
    ParamSpec::quantity("sample_period", Dimension::Duration, "time between rows of <phase>_nodes.csv")
        .defaults("1s")
        .at_least(1e-3),
};

StageCost stage_cost(const Params& p)
{
  return {p.quantity("per_byte"), p.quantity("per_item"), p.quantity("memory_per_item"),
          p.has("output_ratio") ? p.quantity("output_ratio") : 1.0};
}

// No task checkpoints: a failed task starts over.
class NoTaskCheckpoints : public TaskCheckpointing {
 public:
  CheckpointStore store() const override { return CheckpointStore::None; }
  bool can_resume(const SavedCheckpoint&, size_t) const override { return false; }
};

class PreprocessPhase : public Phase {
 public:
  PreprocessPhase(const Params& p, const PhaseLoadContext& c)
      : name_(c.phase_name)
      , workers_(c.platform.group_param(p, "workers"))
      , storage_(&c.services.get<StorageService>(p, "storage"))
      , scratch_(&c.services.get<StorageService>(p, "scratch"))
      , fan_in_(p.integer("fan_in"))
      , failure_timeout_s_(p.quantity("failure_timeout"))
      , sample_period_s_(p.quantity("sample_period"))
      , source_key_(Rng::stream_key(c.seed, "phase." + c.phase_name + ".sources"))
  {
    c.claims.push_back({workers_.name, p.raw("workers")});
    if (scratch_->servers().name != workers_.name)
      p.fail("scratch", "the scratch service's servers must be the workers (group '" + workers_.name + "'), not '" +
                            scratch_->servers().name + "'");
    const Params corpus = p.section("corpus", kCorpusParams);
    spec_.files         = corpus.integer("files");
    if (p.has("from_phase")) {
      from_phase_ = p.text("from_phase");
      if (std::find(c.after.begin(), c.after.end(), from_phase_) == c.after.end())
        p.fail("from_phase", "list '" + from_phase_ + "' in this phase's `after` too: its corpus must exist first");
      if (corpus.has("documents") || corpus.has("bytes"))
        corpus.fail("documents", "with from_phase, the documents and bytes are the ingest phase's; give only files");
    } else {
      if (!corpus.has("documents") || !corpus.has("bytes"))
        corpus.fail("documents", "give documents and bytes (or name an ingest phase in from_phase)");
      spec_.documents = corpus.quantity("documents");
      spec_.bytes     = corpus.quantity("bytes");
    }
    const Params place  = p.section("placement", kPlacementParams);
    const std::string placement = place.text("impl");
    if (placement != "striped" && placement != "replicated")
      place.fail("impl", "expected striped or replicated, got '" + placement + "'");
    replicas_ = placement == "striped" ? 1 : place.integer("replicas");
    if (replicas_ > storage_->servers().count)
      place.fail("replicas", std::to_string(replicas_) + " copies of each file on " +
                                 std::to_string(storage_->servers().count) + " servers of '" + storage_->name() + "'");
    engine_   = Registry<PreprocessEngine>::create(p.raw("engine"), {});
    spec_.engine = engine_->traits();
    if (spec_.engine.pull_remote && storage_->servers().name == workers_.name && replicas_ < 2)
      p.fail("engine", "this engine reads the corpus over the network, but every file's only copy is on a worker: "
                       "give placement {impl: replicated, replicas: 2} or more, or a storage service on other hosts");
    scheduler_   = Registry<TaskScheduler>::create(p.raw("scheduler"), {});
    const Params mh = p.section("minhash", kMinhashParams);
    spec_.bands     = static_cast<int>(mh.integer("bands"));
    spec_.rows      = static_cast<int>(mh.integer("rows"));
    spec_.key_B     = mh.quantity("key_bytes");
    spec_.id_B      = mh.quantity("id_bytes");
    const int64_t reducers = p.integer("reducers");
    spec_.reducers         = reducers > 0 ? reducers : workers_.count;
    const Params dup       = p.section("duplicates", kDuplicateParams);
    spec_.removed_fraction = dup.quantity("fraction") * mean_found(dup, c.seed);
    memory_B_ = p.has("executor_memory") ? p.quantity("executor_memory")
                                         : workers_.memory_B > 0 ? workers_.memory_B : 16.0 * (1 << 30);
    const std::vector<std::string> order = {"read", "minhash", "lsh_shuffle", "cluster", "filter_write"};
    const std::vector<std::string> pipeline = p.text_list("pipeline");
    if (pipeline.empty() || pipeline.size() > order.size() ||
        !std::equal(pipeline.begin(), pipeline.end(), order.begin()))
      p.fail("pipeline", "expected read, minhash, lsh_shuffle, cluster, filter_write or the first ones of them, in "
                         "that order (each stage needs the one before)");
    spec_.stages    = static_cast<int>(pipeline.size());
    const Params st = p.section("stages", stages_params());
    spec_.read      = stage_cost(st.section("read", read_params()));
    spec_.minhash   = stage_cost(st.section("minhash", minhash_params()));
    spec_.shuffle   = stage_cost(st.section("lsh_shuffle", shuffle_params()));
    spec_.cluster   = stage_cost(st.section("cluster", cluster_params()));
    spec_.filter    = stage_cost(st.section("filter_write", filter_params()));
    // A worker runs a task on all its cores: core time / cores at the group's mean core speed.
    flops_per_core_s_ = workers_.speed->mean() / static_cast<double>(workers_.cores);
  }

  void run(PhaseRuntime& runtime) override
  {
    const double start = now();
    if (!from_phase_.empty())
      take_corpus(runtime.metrics_of(from_phase_));
    if (static_cast<double>(spec_.files) > spec_.documents || static_cast<double>(spec_.reducers) > spec_.documents)
      throw SimulationError("phase '" + name_ + "': " + std::to_string(spec_.files) + " files and " +
                            std::to_string(spec_.reducers) + " reducers for " + format_number(spec_.documents) +
                            " documents: give at most one file and one reducer per document");
    place_corpus();
    const DedupJob job(spec_);
    // Per task of the last stage, and of the read stage: where its output is.
    std::vector<std::vector<TaskInputPart>> previous, parsed;
    for (const StagePlan& stage : job.stages()) {
      std::vector<Task> tasks = stage_tasks(stage, previous, parsed);
      MasterWorkerSetup setup{runtime.platform, runtime.faults, workers_.first_host, workers_,  *scheduler_,
                              no_checkpoints_,  failure_timeout_s_, sample_period_s_, runtime.label, storage_, scratch_};
      MasterWorker mw(setup, tasks);
      const double began = now();
      mw.run();
      record_stage(stage, mw, began);
      previous.clear();
      for (size_t t = 0; t < tasks.size(); ++t) {
        const TaskRecord& r = mw.records()[t];
        previous.push_back({{{{workers_.host(r.worker), r.output_file}}, tasks[t].output_B, true}});
      }
      if (stage.stage == DedupStage::Read)
        parsed = previous;
    }
    makespan_s_ = now() - start;
  }

  Metrics metrics() const override
  {
    const DedupJob job(spec_);
    const double workers = static_cast<double>(workers_.count);
    return {{"documents", spec_.documents},
            {"bytes", spec_.bytes},
            {"makespan_s", makespan_s_},
            {"bytes_read_local", read_local_},
            {"bytes_read_remote", read_remote_},
            {"network_bytes", read_remote_ + scratch_remote_ + written_remote_},
            {"shuffle_bytes", job.shuffle_bytes()},
            {"spill_bytes", spill_},
            {"peak_memory_bytes", peak_memory_},
            {"documents_removed", job.documents_removed()},
            {"cpu_utilization", makespan_s_ > 0 ? busy_s_ / (workers * makespan_s_) : 0},
            {"tasks", tasks_},
            {"reexecutions", reexecutions_}};
  }

  std::vector<OutputTable> tables() const override { return {{"stages", stages_csv_}, {"nodes", nodes_csv_}}; }

 private:
  // The probability that a near-duplicate is found, averaged over its similarity distribution.
  double mean_found(const Params& dup, uint64_t seed) const
  {
    const auto similarity = dup.distribution("similarity");
    Rng rng               = Rng::stream(seed, "phase." + name_ + ".similarity");
    double sum            = 0;
    constexpr int kDraws  = 100000;
    for (int i = 0; i < kDraws; ++i) {
      const double s = similarity->sample(rng);
      if (s > 1)
        dup.fail("similarity", "a Jaccard similarity lies in [0, 1]; this distribution draws " + format_number(s));
      sum += MinHashLsh::candidate_probability(s, spec_.bands, spec_.rows);
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
    const std::string from = "phase '" + name_ + "': from_phase '" + from_phase_ + "'";
    if (files < 0 || removed < 0 || bytes < 0)
      throw SimulationError(from + " is not an ingest phase (it reports no files and data_bytes)");
    const double left = files - removed;
    if (!(left >= 1) || !(bytes > 0))
      throw SimulationError(from + " left no corpus (" + format_number(files) + " files created, " +
                            format_number(removed) + " removed, " + format_number(bytes) + " B of data)");
    spec_.documents = left;
    spec_.bytes     = bytes * left / files;
    double held     = 0;
    for (size_t t = 0; t < storage_->targets(); ++t)
      held += storage_->used(t);
    if (held + 1 < spec_.bytes)
      throw SimulationError(from + " wrote " + format_number(spec_.bytes) + " B of files, but storage service '" +
                            storage_->name() + "' holds " + format_number(held) +
                            " B: did the ingest phase write them to another service?");
  }

  // Each corpus file on its server(s), its bytes taken on their disks (no simulated I/O: the
  // corpus is there before the phase starts; an ingest phase's corpus has taken them already).
  void place_corpus()
  {
    const int64_t servers = storage_->servers().count;
    const double file_B   = spec_.bytes / static_cast<double>(spec_.files);
    corpus_.assign(static_cast<size_t>(spec_.files), {});
    for (int64_t f = 0; f < spec_.files; ++f)
      for (int64_t k = 0; k < replicas_; ++k) {
        const auto server = static_cast<size_t>((f + k) % servers);
        const FileId file = storage_->new_local_file(server);
        const IoOutcome o =
            from_phase_.empty() ? storage_->account(file, storage_->layout(file).target(0), file_B) : IoOutcome{};
        if (o.status == IoStatus::NoSpace)
          throw SimulationError("phase '" + name_ + "': the corpus does not fit: " + o.message);
        corpus_[static_cast<size_t>(f)].push_back({storage_->servers().host(server), file});
      }
  }

  std::vector<Task> stage_tasks(const StagePlan& stage, const std::vector<std::vector<TaskInputPart>>& previous,
                                const std::vector<std::vector<TaskInputPart>>& parsed) const
  {
    std::vector<Task> tasks(static_cast<size_t>(stage.tasks));
    const TaskShape& each = stage.each;
    for (size_t t = 0; t < tasks.size(); ++t) {
      Task& task    = tasks[t];
      task.id       = std::string(dedup_stage_name(stage.stage)) + "-" + std::to_string(t);
      task.flops    = each.core_s * flops_per_core_s_;
      task.input_B  = each.input_B;
      task.output_B = each.output_B;
      task.spill_B  = std::max(0.0, each.memory_B - memory_B_);
      task.output   = stage.stage == DedupStage::FilterWrite ? TaskOutput::Storage : TaskOutput::LocalDisk;
      if (task.output == TaskOutput::Storage)
        task.output_copies = static_cast<int>(replicas_);  // the survivors placed like the corpus
      const bool reads_corpus = stage.stage == DedupStage::Read || stage.stage == DedupStage::ReadMinhash ||
                                (stage.stage == DedupStage::FilterWrite && spec_.engine.fuse_read_minhash);
      if (reads_corpus) {
        task.inputs        = {{corpus_[t], each.input_B, false}};
        task.prefer_remote = spec_.engine.pull_remote;
      } else if (stage.stage == DedupStage::Minhash || stage.stage == DedupStage::FilterWrite) {
        task.inputs = {parsed[t].front()};  // the same partition's parsed documents
        task.inputs.front().bytes = each.input_B;
      } else {
        // A reducer (or the cluster task) gathers from every node that ran the last stage: an
        // equal share from fan_in of them (all when fan_in covers them), consecutive nodes from
        // one drawn at random. It may run anywhere: an all-to-all exchange has no locality, so
        // on N nodes about 1/N of its bytes are local, whatever fan_in.
        const std::vector<const TaskInputPart*> nodes = one_output_per_node(previous);
        const size_t sources = std::min<size_t>(static_cast<size_t>(fan_in_), nodes.size());
        Rng pick             = Rng::keyed(source_key_, static_cast<uint64_t>(stage.stage) * 1000003 + t);
        const size_t first   = static_cast<size_t>(pick.bits() % nodes.size());
        for (size_t k = 0; k < sources; ++k) {
          TaskInputPart part = *nodes[(first + k) % nodes.size()];
          part.bytes         = each.input_B / static_cast<double>(sources);
          task.inputs.push_back(part);
        }
        task.near_input = false;
      }
    }
    return tasks;
  }

  // One output of the last stage per node that holds any, in node order.
  static std::vector<const TaskInputPart*> one_output_per_node(const std::vector<std::vector<TaskInputPart>>& outputs)
  {
    std::map<HostId, const TaskInputPart*> by_node;
    for (const auto& o : outputs)
      by_node.emplace(o.front().copies.front().host, &o.front());
    std::vector<const TaskInputPart*> nodes;
    for (const auto& [host, part] : by_node)
      nodes.push_back(part);
    return nodes;
  }

  void record_stage(const StagePlan& stage, const MasterWorker& mw, double began)
  {
    const MasterWorkerTotals& t = mw.totals();
    read_local_ += t.bytes_read_local;
    read_remote_ += t.bytes_read_remote;
    scratch_remote_ += t.scratch_read_remote;
    spill_ += t.spill_bytes;
    busy_s_ += t.busy_s;
    tasks_ += static_cast<double>(stage.tasks);
    written_remote_ += t.bytes_written_remote;
    peak_memory_ = std::max(peak_memory_, std::min(stage.each.memory_B, memory_B_));
    for (const TaskRecord& r : mw.records())
      reexecutions_ += std::max(0, r.attempts - 1);
    const double n = static_cast<double>(stage.tasks);
    stages_csv_.rows.push_back({dedup_stage_name(stage.stage), std::to_string(stage.tasks), format_number(began),
                                format_number(now()), format_number(n * stage.each.input_B),
                                format_number(n * stage.each.output_B)});
    for (const auto& row : mw.worker_states().rows)  // time_s, worker, idle | busy | down
      nodes_csv_.rows.push_back({row[0], dedup_stage_name(stage.stage), row[1], row[2]});
  }

  std::string name_;
  std::string from_phase_;
  const GroupSpec& workers_;
  StorageService* storage_;
  StorageService* scratch_;
  int64_t fan_in_;
  double failure_timeout_s_, sample_period_s_;
  uint64_t source_key_;  // draws the nodes a reducer reads from
  int64_t replicas_ = 1;
  double memory_B_  = 0;
  double flops_per_core_s_ = 0;
  DedupSpec spec_;
  std::unique_ptr<PreprocessEngine> engine_;
  std::unique_ptr<TaskScheduler> scheduler_;
  NoTaskCheckpoints no_checkpoints_;
  std::vector<std::vector<TaskInput>> corpus_;  // per file: its copies
  double makespan_s_ = 0, read_local_ = 0, read_remote_ = 0, scratch_remote_ = 0, written_remote_ = 0;
  double spill_ = 0, busy_s_ = 0, tasks_ = 0, reexecutions_ = 0, peak_memory_ = 0;
  CsvWriter stages_csv_{{"stage", "tasks", "start_s", "end_s", "input_bytes", "output_bytes"}, {}};
  CsvWriter nodes_csv_{{"time_s", "stage", "worker", "state"}, {}};
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
     "bytes of band records the LSH shuffle moves: documents x bands x (key + id bytes)"},
    {"spill_bytes", MetricUnit::Bytes, "bytes tasks spilled to the workers' disks beyond executor_memory"},
    {"peak_memory_bytes", MetricUnit::Bytes, "the most memory one task held (at most executor_memory)"},
    {"documents_removed", MetricUnit::Count,
     "near-duplicates removed: documents x fraction x the probability LSH finds one, averaged over their "
     "similarity"},
    {"cpu_utilization", MetricUnit::Ratio, "busy worker time / (workers x makespan)"},
    {"tasks", MetricUnit::Count, "tasks of all stages"},
    {"reexecutions", MetricUnit::Count, "task starts beyond each task's first (after a worker failure)"},
};

}  // namespace

LLSIM_REGISTER(Phase, "preprocess", PreprocessPhase, "MinHash-LSH deduplication of a corpus on a cluster",
               kPreprocessParams);
LLSIM_DECLARE_METRICS(Phase, "preprocess", kPreprocessMetrics);

}  // namespace llsim
