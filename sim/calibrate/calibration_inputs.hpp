// Measurements `llsim calibrate` fits to, read from the files users have:
//   step times   CSV prefills,prefill_tokens,decodes,context,seconds[,tp]: one iteration per
//                row, of `prefills` sequences sharing prefill_tokens new tokens and `decodes`
//                sequences generating one each, every sequence after `context` tokens of
//                context; tp defaults to the GPU's count;
//   Vidur mlp.csv per-operator times against num_tokens and the TP degree (one measurement per
//                row and operator, per call: per layer, or once for the embedding);
//   Vidur attention.csv      one layer's prefill or decode attention time (kernel, reshapes and
//                KV-cache save) against chunk or batch size, context and TP degree;
//   Vidur cpu_overheads.csv  CPU time of an iteration against its batch size;
//   Vidur all_reduce.csv     one all-reduce's time against its bytes and workers (the rows of
//                workers on one node, as an instance's GPUs are).
// Every time must be > 0 (errors are relative). Errors name the file and line.
#pragma once
#include "sim/calibrate/calibration.hpp"

#include <string>
#include <vector>

namespace llsim {

std::vector<Measurement> read_step_times(const std::string& file, int64_t default_tp);
std::vector<Measurement> read_profile_measurements(const std::string& file, const LlmModel& model);
std::vector<Measurement> read_attention_measurements(const std::string& file, const LlmModel& model);
std::vector<Measurement> read_cpu_measurements(const std::string& file);
std::vector<Measurement> read_all_reduce_measurements(const std::string& file);

}  // namespace llsim
