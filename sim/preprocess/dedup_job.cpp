#include "sim/preprocess/dedup_job.hpp"

#include <cmath>

namespace llsim {

const char* dedup_stage_name(DedupStage s)
{
  switch (s) {
  case DedupStage::Read:
    return "read";
  case DedupStage::Minhash:
    return "minhash";
  case DedupStage::ReadMinhash:
    return "read+minhash";
  case DedupStage::LshShuffle:
    return "lsh_shuffle";
  case DedupStage::Cluster:
    return "cluster";
  case DedupStage::FilterWrite:
    return "filter_write";
  }
  return "?";
}

bool DedupJob::ran(DedupStage stage) const
{
  // The position of the stage in read, minhash, lsh_shuffle, cluster, filter_write (fused
  // read+minhash counts as minhash: it runs with the first two).
  int position = 0;
  switch (stage) {
  case DedupStage::Read:
    position = 1;
    break;
  case DedupStage::Minhash:
  case DedupStage::ReadMinhash:
    position = 2;
    break;
  case DedupStage::LshShuffle:
    position = 3;
    break;
  case DedupStage::Cluster:
    position = 4;
    break;
  case DedupStage::FilterWrite:
    position = 5;
    break;
  }
  return position <= s_.stages;
}

int64_t DedupJob::draw_removed(Rng& rng) const
{
  if (!ran(DedupStage::Cluster))
    return 0;
  return binomial(rng, std::llround(s_.documents * s_.duplicate_fraction), s_.found_probability);
}

TaskShape DedupJob::shape(const StageCost& c, double in_B, double items, double out_B) const
{
  TaskShape t;
  t.core_s = (in_B * c.per_byte_s + items * c.per_item_s) * s_.engine.operator_factor +
             (in_B + out_B) * s_.engine.serialize_s_per_B;
  t.input_B  = in_B;
  t.output_B = out_B;
  t.memory_B = items * c.memory_per_item_B * s_.engine.memory_factor;
  return t;
}

std::vector<StagePlan> DedupJob::stages() const
{
  const double files     = static_cast<double>(s_.files);
  const double part_B    = s_.bytes / files;
  const double part_docs = s_.documents / files;
  const double parsed_B  = part_B * s_.read.output_ratio;
  const double records_B = part_docs * s_.bands * (s_.key_B + s_.id_B);
  const double reducers  = static_cast<double>(s_.reducers);
  std::vector<StagePlan> plan;
  if (s_.stages == 1) {
    plan.push_back({DedupStage::Read, s_.files, shape(s_.read, part_B, part_docs, parsed_B)});
    return plan;
  }
  if (s_.engine.fuse_read_minhash) {
    // One pass: the read's and the hashing's costs on the partition, no parsed copy written.
    TaskShape fused         = shape(s_.read, part_B, part_docs, records_B);
    const TaskShape hashing = shape(s_.minhash, parsed_B, part_docs, 0);
    fused.core_s += hashing.core_s - parsed_B * s_.engine.serialize_s_per_B;
    fused.memory_B += hashing.memory_B;  // a document parsed and hashed at once
    plan.push_back({DedupStage::ReadMinhash, s_.files, fused});
  } else {
    plan.push_back({DedupStage::Read, s_.files, shape(s_.read, part_B, part_docs, parsed_B)});
    plan.push_back({DedupStage::Minhash, s_.files, shape(s_.minhash, parsed_B, part_docs, records_B)});
  }
  if (s_.stages == 2)
    return plan;
  const double records = s_.documents * s_.bands / reducers;
  plan.push_back({DedupStage::LshShuffle, s_.reducers,
                  shape(s_.shuffle, shuffle_B() / reducers, records, candidate_pair_B() / reducers)});
  if (s_.stages == 3)
    return plan;
  plan.push_back({DedupStage::Cluster, 1,
                  shape(s_.cluster, candidate_pair_B(), expected_removed(), expected_removed() * s_.id_B)});
  if (s_.stages == 4)
    return plan;
  // filter_write reads what the engine kept: the parsed copy, or, fused, the corpus again, which
  // it parses again. Either way it writes the surviving parsed documents.
  const double survivors_B = parsed_B * (1 - removed_fraction()) * s_.filter.output_ratio;
  TaskShape filter         = shape(s_.filter, parsed_B, part_docs, survivors_B);
  if (s_.engine.fuse_read_minhash) {
    filter.input_B = part_B;
    filter.core_s += shape(s_.read, part_B, part_docs, 0).core_s;
  }
  plan.push_back({DedupStage::FilterWrite, s_.files, filter});
  return plan;
}

}  // namespace llsim
