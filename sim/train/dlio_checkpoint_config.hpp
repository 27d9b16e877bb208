// Reads a DLIO checkpoint workload configuration as MLPerf Storage writes it (the YAML a
// `dlio_checkpoint` phase names with `config:`), so a user brings their own file unchanged:
//
//   model:
//     name: llama_405b
//     num_layers: 126
//     model_datatype: fp16
//     optimizer_datatype: fp32
//     parallelism: {tensor: 8, pipeline: 32, zero_stage: 1, data: 2}
//     transformer: {vocab_size: 128256, hidden_size: 16384, ffn_hidden_size: 53248,
//                   num_attention_heads: 128, num_kv_heads: 8}
//   workflow: {generate_data: False, train: False, checkpoint: True}
//   checkpoint: {num_checkpoints_write: 10, num_checkpoints_read: 10, fsync: True}
//
// What llsim reads: model.num_layers and the five transformer figures (required: no default
// stands in for a model's shape); model.parallelism.tensor and pipeline (absent: 1) and
// zero_stage (absent: 0); checkpoint.num_checkpoints_write and num_checkpoints_read (absent: 1
// each). model.parallelism.data is not read: as in DLIO, the data-parallel degree is what the
// ranks leave (MLPerf's llama3_8b.yaml states data 1 and runs on 8 ranks). An absent fsync is
// taken as True (DLIO's default is False; llsim's storage always writes through). Refused, each at its line: workflow.checkpoint False
// (nothing to checkpoint), workflow.train True (a training run's reads are a `dlio` phase's),
// checkpoint.fsync False (llsim's storage writes through to its drives), and datatypes other
// than fp16 or bf16 weights with fp32 optimizer state (the sizes DLIO's MLPerf configurations
// give, the only ones llsim counts). Other keys (checkpoint_folder, time_between_checkpoints,
// framework, ...) are DLIO's and change nothing llsim models. A malformed file is a ConfigError
// naming its file, line and column.
#pragma once
#include "sim/train/dlio_checkpoint_workload.hpp"

#include <string>

namespace llsim {

DlioCheckpointWorkload read_dlio_checkpoint_config(const std::string& file);

}  // namespace llsim
