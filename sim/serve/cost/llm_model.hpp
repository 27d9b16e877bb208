// The served model's shape, as far as serving costs depend on it: the weights read by every
// iteration, the flops per token, and the KV bytes each token of context holds.
//
//   model: {preset: llama3-70b}                                   a known architecture, or
//   model: {preset: llama3-70b, dtype_bytes: 1}                   served in FP8, or
//   model: {params: 70G, layers: 80, d_model: 8192, kv_heads: 8, head_dim: 128, dtype_bytes: 2}
//   model: {params: 7G, kv_bytes_per_token: 512KiB}               the KV size directly
//   model: {params: 46.7G, layers: 32, d_model: 4096, kv_heads: 8, head_dim: 128,
//           experts: 8, experts_per_token: 2, expert_ffn: 14336}  mixture of experts
//
// KV bytes per token (docs/phases/serve.md):
//   MHA and GQA  2 (K and V) x layers x kv_heads x head_dim x dtype_bytes
//   MLA          layers x (kv_lora_rank + rope_head_dim) x dtype_bytes (the compressed latent
//                and the shared RoPE key, as DeepSeek-V2/V3 cache them)
// A mixture of experts holds all its params but computes with its active ones: params less the
// experts a token does not reach, (experts - experts_per_token) x MoE layers x 3 (gated) or 2
// matrices of d_model x expert_ffn.
// `llsim models` lists the presets (sources in llm_presets.cpp) with their derived figures.
#pragma once
#include "sim/core/params.hpp"

#include <string>
#include <vector>

namespace llsim {

enum class Attention { Mha, Gqa, Mla };

struct LlmModel {
  std::string name;
  double params         = 0;  // parameters, all of them (weights held in memory)
  int64_t layers        = 0;  // 0 when only kv_bytes_per_token was given
  int64_t d_model       = 0;
  int64_t kv_heads      = 0;
  int64_t head_dim      = 0;
  double dtype_B        = 2;
  double kv_B_per_token = 0;
  int64_t heads         = 0;  // query heads; 0: not given (attention is then d_model wide)
  int64_t kv_lora_rank  = 0;  // MLA's compressed KV; 0: MHA or GQA
  int64_t rope_head_dim = 0;  // MLA's decoupled RoPE key, cached beside the latent
  // Mixture of experts (experts 0: a dense model).
  int64_t experts           = 0;     // routed experts per MoE layer
  int64_t experts_per_token = 0;     // routed experts each token reaches
  int64_t shared_experts    = 0;     // experts every token reaches, each of expert_ffn
  int64_t expert_ffn        = 0;     // intermediate size of one expert
  int64_t dense_layers      = 0;     // leading layers with a dense MLP instead of experts
  bool gated_mlp            = true;  // SwiGLU: 3 matrices per MLP, else 2
  // Read by the operators iteration model only.
  int64_t ffn   = 0;  // intermediate size of a dense MLP
  int64_t vocab = 0;

  double weight_B() const { return params * dtype_B; }
  // The bytes one of `ranks` data-parallel ranks holds, its MoE layers' routed experts shared out
  // among the ranks (vLLM's --data-parallel-size) and everything else replicated.
  double rank_weight_B(int64_t ranks) const;
  bool has_shape() const { return layers > 0 && d_model > 0; }
  bool moe() const { return experts > 0; }
  // Parameters one token computes with: params for a dense model.
  double active_params() const;
  // Width of the attention products QK^T and PV: heads x head_dim, or d_model without heads.
  int64_t attention_width() const { return heads > 0 ? heads * head_dim : d_model; }
  Attention attention() const;
};

const char* attention_name(Attention a);
// KV bytes one token of context holds, from the shape (MHA, GQA or MLA).
double kv_B_per_token(const LlmModel& m);

const ParamTable& llm_model_params();
LlmModel parse_llm_model(const Params& p);
// Known architectures (sources in llm_presets.cpp), for `llsim models`.
const std::vector<LlmModel>& llm_presets();

}  // namespace llsim
