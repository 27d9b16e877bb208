// The work of a fuzzy-deduplication job, stage by stage, as shapes of tasks (pure arithmetic; the
// preprocess phase runs them on the master-worker runtime).
//
// Stages and their tasks (P = corpus files, one partition each; R = reducers):
// - read (P tasks): a partition's bytes in, parsed documents out (bytes x output_ratio).
// - minhash (P tasks): parsed documents in; K = b r hashes per shingle; out: every document's
//   b band records of key + id bytes (the shuffle's map output).
// - lsh_shuffle (R tasks): 1/R of the band records in, grouped by key; out: candidate pairs
//   (two ids each), one per near-duplicate found.
// - cluster (1 task): the candidate pairs in, union-find; out: the ids of removed documents.
// - filter_write (P tasks): a partition's parsed documents in again (fused: the corpus file,
//   parsed again), the survivors out to storage.
// Costs: per input byte and per document (per band record for lsh_shuffle, per candidate pair
// for cluster), in seconds of one core, times the engine's operator factor, plus its
// serialisation per byte in and out. Fused read+minhash is one task per partition costing both,
// reading the corpus and writing the band records. Every task of a stage has the same shape, from
// the job's expected figures: the costs use the expected number of documents removed.
//
// What the job reports depends on the stages that ran (`stages`): the shuffle's bytes once
// lsh_shuffle ran, the near-duplicates found once cluster ran (0 before).
#pragma once
#include "sim/core/random.hpp"
#include "sim/preprocess/preprocess_engine.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace llsim {

enum class DedupStage { Read, Minhash, ReadMinhash, LshShuffle, Cluster, FilterWrite };
const char* dedup_stage_name(DedupStage s);

struct StageCost {
  double per_byte_s        = 0;  // core-seconds per input byte
  double per_item_s        = 0;  // core-seconds per document (record, pair)
  double memory_per_item_B = 0;  // memory per document held at once
  double output_ratio      = 1;  // read: parsed bytes per input byte; filter_write: written per surviving byte
};

struct DedupSpec {
  double documents = 0, bytes = 0;
  int64_t files = 1;
  int bands = 14, rows = 8;
  double key_B = 8, id_B = 8;  // a band record is key + id
  int64_t reducers          = 1;
  double duplicate_fraction = 0;  // documents that are near-duplicates of another
  double found_probability  = 0;  // that LSH finds a near-duplicate (averaged over its similarity)
  StageCost read, minhash, shuffle, cluster, filter;
  EngineTraits engine;
  int stages = 5;  // the first `stages` of read, minhash, lsh_shuffle, cluster, filter_write
};

struct TaskShape {
  double core_s   = 0;
  double input_B  = 0;
  double output_B = 0;
  double memory_B = 0;  // held at once by the task
};

struct StagePlan {
  DedupStage stage;
  int64_t tasks;
  TaskShape each;  // every task of the stage is the same
};

class DedupJob {
 public:
  explicit DedupJob(const DedupSpec& spec)
      : s_(spec)
  {}
  std::vector<StagePlan> stages() const;
  // Band records shuffled: documents x bands x (key + id) bytes.
  double shuffle_B() const { return s_.documents * s_.bands * (s_.key_B + s_.id_B); }
  double removed_fraction() const { return s_.duplicate_fraction * s_.found_probability; }
  double expected_removed() const { return s_.documents * removed_fraction(); }
  double candidate_pair_B() const { return expected_removed() * 2 * s_.id_B; }

  bool ran(DedupStage stage) const;  // whether the pipeline runs it
  // Reported: the shuffle's bytes, the expected documents removed, and a whole count of them
  // drawn with `rng`: each of the documents x fraction near-duplicates (rounded) is found with
  // found_probability. Each 0 when the stage that produces it did not run.
  double reported_shuffle_B() const { return ran(DedupStage::LshShuffle) ? shuffle_B() : 0; }
  double reported_expected_removed() const { return ran(DedupStage::Cluster) ? expected_removed() : 0; }
  int64_t draw_removed(Rng& rng) const;

 private:
  TaskShape shape(const StageCost& c, double in_B, double items, double out_B) const;
  DedupSpec s_;
};

}  // namespace llsim
