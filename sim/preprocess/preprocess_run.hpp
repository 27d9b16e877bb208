// A preprocess phase at work (sim/preprocess/preprocess_phase.cpp): the corpus placed on the storage
// service, then the stages of its deduplication job (dedup_job.hpp) one after another, each as
// tasks on the master-worker runtime (sim/mw/master_worker.hpp), a stage's outputs all written
// before the next starts.
//
// Placement: corpus file f on server f mod servers and, with `replicas` k, on the next k - 1
// servers too. Its bytes are taken on their disks without simulated I/O (the corpus is there
// before the phase starts; an ingest phase's corpus has taken them already).
//
// Tasks: a partition's task of read (or fused read+minhash, or fused filter_write) reads its
// corpus file from the storage service, from a copy on the worker's own disks when it holds one
// (unless the engine pulls remotely). minhash and filter_write read the same partition's parsed
// documents where the read stage left them. A reducer (and the cluster task) gathers an equal
// share from `fan_in` consecutive nodes that ran the last stage, from one drawn at random, and
// may run anywhere. Outputs go to the workers' disks (scratch), except filter_write's, which go
// to the storage service, `replicas` copies. A task holding more than the executor memory spills
// the rest to the worker's disks. Workers run a task on all their cores. A failed task starts
// over (no task checkpoints).
#pragma once
#include "sim/core/csv.hpp"
#include "sim/mw/master_worker.hpp"
#include "sim/mw/task.hpp"
#include "sim/preprocess/dedup_job.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace llsim {

class CorpusPlacement;

struct GroupSpec;
struct PhaseRuntime;
class MasterWorker;
class StorageService;
class TaskScheduler;

// Where a preprocess phase's output (what filter_write kept) is named on its storage service: a
// file set <phase>/output, one part per task, part-00000 ..., for a later phase to read (a
// train phase's `data.dataset`).
std::string output_path(const std::string& phase);
std::string output_part_name(const std::string& phase, size_t task);

struct PreprocessSetup {
  std::string name;  // the phase's, for messages
  const GroupSpec* workers         = nullptr;
  StorageService* storage          = nullptr;  // holds the corpus
  StorageService* scratch          = nullptr;  // the workers' own disks
  const TaskScheduler* scheduler   = nullptr;
  const CorpusPlacement* placement = nullptr;
  DedupSpec spec;
  int64_t fan_in           = 16;  // map outputs a reducer reads from
  int64_t replicas         = 1;   // copies of each corpus file (placement's)
  double memory_B          = 0;   // a task's executor memory
  double flops_per_core_s  = 0;   // a worker's speed per core
  double failure_timeout_s = 0;
  double sample_period_s   = 0;
  std::string sample_period_at;   // Params::located("sample_period"), for its row limit
  int64_t give_up_after = 1000;   // failed attempts in a row of a task that stop the run
  uint64_t source_key   = 0;      // draws the nodes a reducer reads from
  bool corpus_written   = false;  // the corpus is an ingest phase's, its bytes on the disks already
};

// Summed over the stages.
struct PreprocessTotals {
  double read_local = 0, read_remote = 0;  // corpus bytes read
  double scratch_remote = 0;               // intermediate bytes read from another worker
  double written_remote = 0;               // output written to the storage service over the network
  double spill = 0, busy_s = 0, tasks = 0, reexecutions = 0, peak_memory = 0;
  CsvWriter stages{{"stage", "tasks", "start_s", "end_s", "input_bytes", "output_bytes"}, {}, {}};
  CsvWriter nodes{{"time_s", "stage", "worker", "state"}, {}, {}};  // worker states through the stages
};

class PreprocessRun {
 public:
  explicit PreprocessRun(const PreprocessSetup& setup)
      : s_(setup)
      , tracking_rows_(tracking_row_limit(s_.sample_period_at))
  {}
  // From the phase's actor: places the corpus, then runs every stage. Throws SimulationError
  // when the corpus does not fit.
  void run(PhaseRuntime& runtime);
  const PreprocessTotals& totals() const { return totals_; }

 private:
  using Outputs = std::vector<std::vector<TaskInputPart>>;  // per task: where its output is
  void place_corpus();
  std::vector<Task> stage_tasks(const StagePlan& stage, const Outputs& previous, const Outputs& parsed) const;
  void gather_inputs(Task& task, const StagePlan& stage, size_t t, const Outputs& previous) const;
  void record_stage(const StagePlan& stage, const MasterWorker& mw, double began);

  PreprocessSetup s_;
  WorkCounter tracking_rows_;                   // over all its stages
  std::vector<std::vector<TaskInput>> corpus_;  // per file: its copies
  PreprocessTotals totals_;
};

}  // namespace llsim
