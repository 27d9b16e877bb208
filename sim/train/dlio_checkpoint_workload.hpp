// What a DLIO checkpoint workload is (MLPerf Storage's checkpointing benchmark, v2.0 on), as the
// `dlio_checkpoint` phase kind reads it: a Llama 3-shaped transformer, its parallelism and ZeRO
// stage, and how many checkpoints are saved and loaded. A preset (llama3-8b, llama3-70b,
// llama3-405b, llama3-1t: the model and parallelism of MLPerf Storage's configs) or a DLIO
// checkpoint configuration file (`config:`, dlio_checkpoint_config.hpp) gives the figures, any of
// which the phase's keys override.
//
// The state a checkpoint holds, as DLIO's checkpointing (dlio_benchmark's base_checkpointing.py)
// sizes it: the model's parameters counted from its shape (embedding and LM head vocab x hidden
// each; per layer two norms of hidden, Q and the output projection hidden^2 each, K and V hidden x
// kv_heads x (hidden / heads) each, the gated MLP 3 x hidden x ffn_hidden; a final norm), 2 bytes
// each of fp16 weights and 3 x 4 bytes of fp32 optimizer state, plus 3 x 5 x hidden fp32 values
// of optimizer bookkeeping per rank. This gives MLPerf Storage's published sizes (104.70, 911.21,
// 5,292.25 and 15,426.59 GiB) within 0.01%.
// Who writes what follows the ZeRO stage: stage 3 shards weights and optimizer state over every
// rank; stages 1 and 2 shard the optimizer state, and data-parallel replica 0 writes the weights
// of its tensor and pipeline shard; stage 0, replica 0 writes everything.
#pragma once
#include "sim/core/params.hpp"
#include "sim/train/parallelism.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace llsim {

struct TransformerShape {
  int64_t layers = 0, hidden = 0, ffn_hidden = 0, vocab = 0, heads = 0, kv_heads = 0;
};

struct DlioCheckpointWorkload {
  std::string name;
  TransformerShape shape;
  int64_t tensor = 1, pipeline = 1;
  int64_t zero_stage = 0;
  int64_t saves = 1, loads = 1;  // DLIO's num_checkpoints_write, num_checkpoints_read
};

// Parameters of the model, counted from its shape as DLIO counts them.
double dlio_parameter_count(const TransformerShape& shape);
// The state one checkpoint of `ranks` ranks holds, and who holds which part of it.
ModelState dlio_model_state(const DlioCheckpointWorkload& w, int64_t ranks);
const std::vector<DlioCheckpointWorkload>& dlio_checkpoint_presets();
// The phase's workload keys (workload or config, then the figures that override its figures).
const ParamTable& dlio_checkpoint_workload_params();
DlioCheckpointWorkload dlio_checkpoint_workload(const Params& p);
// Writes the figures the section does not give into it, so that resolved.yaml shows what was
// run: after every check that names a key, which then could not tell the user's from these.
void show_checkpoint_figures(const DlioCheckpointWorkload& w, const Params& p);

}  // namespace llsim
