// Which rank holds which part of the model state. Ranks are ordered tensor-fastest, then data,
// then pipeline (Megatron-LM's order):
//   rank = ((pipeline_stage * data + data_rank) * expert + expert_rank) * tensor + tensor_rank
// and a node holds `ranks_per_node` consecutive ranks (its GPUs), so tensor parallelism stays
// inside a node while tensor <= ranks_per_node.
// The model state (params x state_bytes_per_param) is split over pipeline stages (stage 0 holds
// `embedding_stage` times the share of the others: embeddings and their optimizer state), then
// evenly over tensor and expert ranks: a model-parallel shard. Across data-parallel ranks, the
// sharding says what each holds of its shard: all of it (none); the weights and 1/data of the
// rest, the optimizer state (ZeRO-1, ZeRO-2: gradients are not checkpointed); or 1/data of
// everything (ZeRO-3, FSDP). Sources: Rajbhandari et al., "ZeRO" (SC'20); Zhao et al.,
// "PyTorch FSDP" (VLDB'23).
#pragma once
#include "sim/core/params.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace llsim {

struct Parallelism {
  int64_t data = 1, pipeline = 1, tensor = 1, expert = 1;
  int64_t ranks() const { return data * pipeline * tensor * expert; }
};

enum class Sharding { None, Zero1, Zero2, Zero3, Fsdp };

struct ModelState {
  double params             = 0;
  double B_per_param        = 0;
  double weight_B_per_param = 2;  // of bytes_per_param, the weights (the rest: optimizer state)
  double embedding_stage    = 1;  // share of stage 0 relative to the other stages
  Sharding sharding         = Sharding::None;
  double total_B() const { return params * B_per_param; }
};

struct RankPosition {
  int64_t stage, data_rank, expert_rank, tensor_rank;
};

RankPosition position_of(int64_t rank, const Parallelism& p);

// Bytes of model state one model-parallel shard (one replica's copy) holds, by pipeline stage.
double shard_B(int64_t stage, const ModelState& m, const Parallelism& p);
// Bytes of model state a rank of `stage` holds itself, by the sharding (what a snapshot copies).
double rank_state_B(int64_t stage, const ModelState& m, const Parallelism& p);
// Bytes a rank writes in a checkpoint, which holds one copy of the state: its own unique part of
// its shard; of what the replicas share, 1/data each with `even_data`, else all of it from
// data rank 0.
double rank_checkpoint_B(const RankPosition& pos, const ModelState& m, const Parallelism& p, bool even_data);
// The most state one node holds: its `ranks_per_node` ranks' own state.
double node_state_B(const ModelState& m, const Parallelism& p, int64_t ranks_per_node);
// "none", "zero1", "zero2", "zero3", "fsdp"; false for another name.
bool parse_sharding(const std::string& name, Sharding* sharding);

const ParamTable& parallelism_params();
const ParamTable& model_params();

}  // namespace llsim
