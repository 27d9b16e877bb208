// Which node holds which part of the model state. One rank per node; ranks are ordered
// tensor-fastest, then data, then pipeline (Megatron-LM's order):
//   rank = ((pipeline_stage * data + data_rank) * expert + expert_rank) * tensor + tensor_rank
// The model state (params x state_bytes_per_param) is split over pipeline stages (stage 0 holds
// `embedding_stage` times the share of the others: embeddings and their optimizer state), then
// evenly over tensor and expert ranks; data-parallel ranks hold replicas.
#pragma once
#include "sim/core/params.hpp"

#include <cstdint>
#include <vector>

namespace llsim {

struct Parallelism {
  int64_t data = 1, pipeline = 1, tensor = 1, expert = 1;
  int64_t ranks() const { return data * pipeline * tensor * expert; }
};

struct ModelState {
  double params          = 0;
  double bytes_per_param = 0;
  double embedding_stage = 1;  // share of stage 0 relative to the other stages
  double total_B() const { return params * bytes_per_param; }
};

struct RankPosition {
  int64_t stage, data_rank, expert_rank, tensor_rank;
};

RankPosition position_of(int64_t rank, const Parallelism& p);

// Bytes of model state one model-parallel shard (one replica's copy) holds, by pipeline stage.
double shard_bytes(int64_t stage, const ModelState& m, const Parallelism& p);

const ParamTable& parallelism_params();
const ParamTable& model_params();

}  // namespace llsim
