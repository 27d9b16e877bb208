// Measured operator times in Vidur's profile layout (the CSVs its profiler writes, which its
// users already have), for the tensor-parallel degree of one instance. `profile: DIR` (or a
// list of directories, as Vidur keeps compute, network and CPU profiles apart) reads whichever
// of these files they hold, each from one directory only:
//   mlp.csv            per-layer operator times (time_stats.<op>.median, ms) against num_tokens
//                      and num_tensor_parallel_workers, with the model's shape in n_head,
//                      n_kv_head, n_embd, n_expanded_embd, vocab_size, use_gated_mlp;
//   all_reduce.csv     time_stats.all_reduce.median (ms) against size (bytes) and num_workers,
//                      all workers on one node (devices_per_node = num_workers);
//   send_recv.csv      time_stats.send_recv.median (ms) against size (bytes), the rows of two
//                      workers on one node: a pipeline stage's send to the next;
//   attention.csv      attention kernel times of prefill chunks and decode batches against their
//                      tokens or batch size and context (sim/serve/cost/vidur_attention.hpp);
//   cpu_overheads.csv  schedule, sampler_e2e, prepare_inputs_e2e and process_model_outputs
//                      medians (ms) against batch_size and tensor_parallel_degree.
// Rows at the same point are averaged. Each curve is read between its points by
// PiecewiseLinear (a point of the profile reads back exactly); below the first point it keeps the
// first value, beyond the last it grows at the slope of the chord over the last half of the
// measured range (sim/core/piecewise_linear.hpp).
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/piecewise_linear.hpp"
#include "sim/serve/cost/operator_costs.hpp"
#include "sim/serve/cost/vidur_attention.hpp"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace llsim {

struct VidurProfile {
  std::array<PiecewiseLinear, kOpCount> op;  // seconds of one call (one layer) against tokens; empty: not measured
  PiecewiseLinear all_reduce;                // seconds against bytes
  PiecewiseLinear send_recv;                 // seconds against bytes
  PiecewiseLinear cpu;                       // seconds of an iteration's CPU work against its sequences
  AttentionProfile attention;                // per layer
};

// The operators mlp.csv measures, by Vidur's column names (time_stats.<name>.median).
const std::vector<std::pair<const char*, Op>>& vidur_mlp_operators();
// How many times an iteration calls a profiled operator: once for the embedding, per dense layer
// for the MLP's, per layer for the others (one residual add per layer, as Vidur counts it).
double profile_calls(Op op, const LlmModel& model);
// ConfigError at the row when mlp.csv's shape columns are not the model's.
void check_profile_shape(const CsvTable& csv, size_t row, const LlmModel& model);

// ConfigError naming the file and line for a malformed file, a model shape the profile was not
// measured for, or a tensor-parallel degree it lacks.
VidurProfile read_vidur_profile(const std::vector<std::string>& dirs, const LlmModel& model, int64_t tp,
                                int64_t pp = 1);

}  // namespace llsim
