#include "sim/preprocess/preprocess_run.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/random.hpp"
#include "sim/core/text.hpp"
#include "sim/mw/master_worker.hpp"
#include "sim/phase/phase.hpp"
#include "sim/preprocess/corpus_placement.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/svc/storage.hpp"

#include <cstdio>

#include <algorithm>
#include <map>

XBT_LOG_EXTERNAL_CATEGORY(llsim_preprocess);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(
    llsim_preprocess_preprocess_run, llsim_preprocess,
    "corpus placement, the engine's choices, each stage's tasks and where their input lies");

namespace llsim {

std::string output_path(const std::string& phase)
{
  return phase + "/output";
}

std::string output_part_name(const std::string& phase, size_t task)
{
  char part[32];
  std::snprintf(part, sizeof part, "/part-%05zu", task);
  return output_path(phase) + part;
}

namespace {

// For logs: where a task's input lies, "400 B on cluster-1 cluster-2; ...", and whether the
// scheduler sees it and the worker prefers a remote copy.
std::string input_places(const Task& t, const Platform& platform)
{
  std::string text;
  for (const TaskInputPart& part : t.inputs) {
    text += (text.empty() ? "" : "; ") + format_number(part.bytes) + " B on";
    for (const TaskInput& c : part.copies)
      text += " " + platform.name(c.host);
  }
  return text + (t.near_input ? "" : " (the scheduler may place it anywhere)") +
         (t.prefer_remote ? " (read from a remote copy)" : "");
}

// No task checkpoints: a failed task starts over.
class NoTaskCheckpoints : public TaskCheckpointing {
 public:
  CheckpointStore store() const override { return CheckpointStore::None; }
  bool can_resume(const SavedCheckpoint&, size_t) const override { return false; }
};

const NoTaskCheckpoints kNoCheckpoints{};

// One output of the last stage per node that holds any, in node order.
std::vector<const TaskInputPart*> one_output_per_node(const std::vector<std::vector<TaskInputPart>>& outputs)
{
  std::map<HostId, const TaskInputPart*> by_node;
  for (const auto& o : outputs)
    by_node.emplace(o.front().copies.front().host, &o.front());
  std::vector<const TaskInputPart*> nodes;
  for (const auto& [host, part] : by_node)
    nodes.push_back(part);
  return nodes;
}

}  // namespace

void PreprocessRun::run(PhaseRuntime& runtime)
{
  place_corpus();
  const EngineTraits& engine = s_.spec.engine;
  XBT_DEBUG("engine: operators x%g, serialisation %g s per byte, read and minhash %s, the corpus read %s",
            engine.operator_factor, engine.serialize_s_per_B, engine.fuse_read_minhash ? "fused" : "apart",
            engine.pull_remote ? "over the network" : "from a local copy where the task runs on one");
  const DedupJob job(s_.spec);
  // Per task of the last stage, and of the read stage: where its output is.
  Outputs previous, parsed;
  for (const StagePlan& stage : job.stages()) {
    std::vector<Task> tasks = stage_tasks(stage, previous, parsed);
    XBT_DEBUG("stage %s: %ld tasks of %g core-s each, %g B in, %g B out, %g B spilled", dedup_stage_name(stage.stage),
              static_cast<long>(stage.tasks), stage.each.core_s, stage.each.input_B, stage.each.output_B,
              tasks.empty() ? 0.0 : tasks.front().spill_B);
    if (XBT_LOG_ISENABLED(llsim_preprocess_preprocess_run, xbt_log_priority_debug))
      for (const Task& t : tasks)
        XBT_DEBUG("task %s: input %s", t.id.c_str(), input_places(t, runtime.platform).c_str());
    MasterWorkerSetup setup{
        runtime.platform,     runtime.faults,     s_.workers->first_host, *s_.workers, *s_.scheduler, kNoCheckpoints,
        s_.failure_timeout_s, s_.sample_period_s, runtime.label,          s_.storage,  s_.scratch,    s_.give_up_after};
    setup.tracking_rows = &tracking_rows_;
    MasterWorker mw(setup, tasks);
    const double began = now();
    mw.run();
    XBT_DEBUG("stage %s done in %g s: corpus read %g B locally and %g B remotely, intermediates %g B remotely",
              dedup_stage_name(stage.stage), now() - began, mw.totals().read_local_B, mw.totals().read_remote_B,
              mw.totals().scratch_read_remote_B);
    record_stage(stage, mw, began);
    previous.clear();
    for (size_t t = 0; t < tasks.size(); ++t) {
      const TaskRecord& r = mw.records()[t];
      previous.push_back({{{{s_.workers->host(r.worker), r.output_file}}, tasks[t].output_B, true}});
      if (stage.stage == DedupStage::FilterWrite)
        s_.storage->set_name(output_part_name(s_.name, t), r.output_file);
    }
    if (stage.stage == DedupStage::Read)
      parsed = previous;
  }
}

void PreprocessRun::place_corpus()
{
  const int64_t servers = s_.storage->servers().count;
  const double file_B   = s_.spec.bytes / static_cast<double>(s_.spec.files);
  corpus_.assign(static_cast<size_t>(s_.spec.files), {});
  for (int64_t f = 0; f < s_.spec.files; ++f)
    for (int64_t k = 0; k < s_.replicas; ++k) {
      const auto server = static_cast<size_t>(s_.placement->server(f, k));
      const FileId file = s_.storage->new_local_file(server);
      const IoOutcome o =
          s_.corpus_written ? IoOutcome{} : s_.storage->account(file, s_.storage->layout(file).target(0), file_B);
      if (o.status == IoStatus::NoSpace)
        throw SimulationError("phase '" + s_.name + "': the corpus does not fit: " + o.message);
      corpus_[static_cast<size_t>(f)].push_back({s_.storage->servers().host(server), file});
    }
  XBT_DEBUG("corpus: %ld files of %g B, file f on server f mod %ld, %ld copies in all on consecutive servers%s",
            static_cast<long>(s_.spec.files), file_B, static_cast<long>(servers), static_cast<long>(s_.replicas),
            s_.corpus_written ? " (its bytes written by an earlier phase)" : "");
}

std::vector<Task> PreprocessRun::stage_tasks(const StagePlan& stage, const Outputs& previous,
                                             const Outputs& parsed) const
{
  std::vector<Task> tasks(static_cast<size_t>(stage.tasks));
  const TaskShape& each = stage.each;
  for (size_t t = 0; t < tasks.size(); ++t) {
    Task& task    = tasks[t];
    task.id       = std::string(dedup_stage_name(stage.stage)) + "-" + std::to_string(t);
    task.flops    = each.core_s * s_.flops_per_core_s;
    task.input_B  = each.input_B;
    task.output_B = each.output_B;
    task.spill_B  = std::max(0.0, each.memory_B - s_.memory_B);
    task.output   = stage.stage == DedupStage::FilterWrite ? TaskOutput::Storage : TaskOutput::LocalDisk;
    if (task.output == TaskOutput::Storage)
      task.output_copies = static_cast<int>(s_.replicas);  // the survivors placed like the corpus
    const bool reads_corpus = stage.stage == DedupStage::Read || stage.stage == DedupStage::ReadMinhash ||
                              (stage.stage == DedupStage::FilterWrite && s_.spec.engine.fuse_read_minhash);
    if (reads_corpus) {
      task.inputs        = {{corpus_[t], each.input_B, false}};
      task.prefer_remote = s_.spec.engine.pull_remote;
    } else if (stage.stage == DedupStage::Minhash || stage.stage == DedupStage::FilterWrite) {
      task.inputs               = {parsed[t].front()};  // the same partition's parsed documents
      task.inputs.front().bytes = each.input_B;
    } else {
      gather_inputs(task, stage, t, previous);
    }
  }
  return tasks;
}

// A reducer (or the cluster task) gathers from every node that ran the last stage: an equal
// share from fan_in of them (all when fan_in covers them), consecutive nodes from one drawn at
// random. It may run anywhere: an all-to-all exchange has no locality, so on N nodes about 1/N
// of its bytes are local, whatever fan_in.
void PreprocessRun::gather_inputs(Task& task, const StagePlan& stage, size_t t, const Outputs& previous) const
{
  const std::vector<const TaskInputPart*> nodes = one_output_per_node(previous);
  const size_t sources                          = std::min<size_t>(static_cast<size_t>(s_.fan_in), nodes.size());
  Rng pick           = Rng::keyed(s_.source_key, static_cast<uint64_t>(stage.stage) * 1000003 + t);
  const size_t first = static_cast<size_t>(pick.bits() % nodes.size());
  for (size_t k = 0; k < sources; ++k) {
    TaskInputPart part = *nodes[(first + k) % nodes.size()];
    part.bytes         = stage.each.input_B / static_cast<double>(sources);
    task.inputs.push_back(part);
  }
  task.near_input = false;
}

void PreprocessRun::record_stage(const StagePlan& stage, const MasterWorker& mw, double began)
{
  const MasterWorkerTotals& t = mw.totals();
  PreprocessTotals& a         = totals_;
  a.read_local += t.read_local_B;
  a.read_remote += t.read_remote_B;
  a.scratch_remote += t.scratch_read_remote_B;
  a.spill += t.spill_B;
  a.busy_s += t.busy_s;
  a.tasks += static_cast<double>(stage.tasks);
  a.written_remote += t.written_remote_B;
  a.peak_memory = std::max(a.peak_memory, std::min(stage.each.memory_B, s_.memory_B));
  for (const TaskRecord& r : mw.records())
    a.reexecutions += std::max(0, r.attempts - 1);
  const double n = static_cast<double>(stage.tasks);
  a.stages.rows.push_back({dedup_stage_name(stage.stage), std::to_string(stage.tasks), format_number(began),
                           format_number(now()), format_number(n * stage.each.input_B),
                           format_number(n * stage.each.output_B)});
  for (const auto& row : mw.worker_states().rows)  // time_s, worker, idle | busy | down
    a.nodes.rows.push_back({row[0], dedup_stage_name(stage.stage), row[1], row[2]});
}

}  // namespace llsim
