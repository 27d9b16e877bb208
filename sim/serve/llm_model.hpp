// The served model's shape, as far as serving costs depend on it: the weights read by every
// iteration, the flops per token, and the KV bytes each token of context holds.
//
//   model: {preset: llama3-70b}                                   a known architecture, or
//   model: {preset: llama3-70b, dtype_bytes: 1}                   served in FP8, or
//   model: {params: 70G, layers: 80, d_model: 8192, kv_heads: 8, head_dim: 128, dtype_bytes: 2}
//   model: {params: 7G, kv_bytes_per_token: 512KiB}               the KV size directly
//
// KV bytes per token = 2 (K and V) x layers x kv_heads x head_dim x dtype_bytes
// (docs/phases/serve.md).
// `llsim models` lists the presets with their derived KV bytes per token.
#pragma once
#include "sim/core/params.hpp"

#include <string>
#include <vector>

namespace llsim {

struct LlmModel {
  std::string name;
  double params             = 0;  // parameters
  int64_t layers            = 0;  // 0 when only kv_bytes_per_token was given
  int64_t d_model           = 0;
  int64_t kv_heads          = 0;
  int64_t head_dim          = 0;
  double dtype_bytes        = 2;
  double kv_bytes_per_token = 0;

  double weight_bytes() const { return params * dtype_bytes; }
  bool has_shape() const { return layers > 0 && d_model > 0; }
};

const ParamTable& llm_model_params();
LlmModel parse_llm_model(const Params& p);
// Known architectures (sources in llm_model.cpp), for `llsim models`.
const std::vector<LlmModel>& llm_presets();

}  // namespace llsim
