// The model catalogue: `model: {preset: NAME}`. Shapes are the config.json figures of each
// Hugging Face release (hidden_size -> d_model, intermediate_size -> ffn, num_attention_heads
// -> heads, num_key_value_heads -> kv_heads, vocab_size -> vocab, and for MoE num_local_experts /
// num_experts / n_routed_experts -> experts, num_experts_per_tok -> experts_per_token,
// moe_intermediate_size -> expert_ffn); params are the totals the model cards publish.
// tests/unit/llm_model_test.cpp recomputes every dense and GQA-MoE total from its shape (within
// 1%), and every MoE's active params against its card.
#include "sim/serve/cost/llm_model.hpp"

namespace llsim {

namespace {

struct Shape {
  int64_t layers, d_model, heads, kv_heads, head_dim, ffn, vocab;
};

LlmModel dense(std::string name, double params, Shape s)
{
  LlmModel m;
  m.name     = std::move(name);
  m.params   = params;
  m.layers   = s.layers;
  m.d_model  = s.d_model;
  m.heads    = s.heads;
  m.kv_heads = s.kv_heads;
  m.head_dim = s.head_dim;
  m.ffn      = s.ffn;
  m.vocab    = s.vocab;
  return m;
}

struct Experts {
  int64_t experts, per_token, shared, ffn, dense_layers;
};

LlmModel moe(std::string name, double params, Shape s, Experts e)
{
  LlmModel m          = dense(std::move(name), params, s);
  m.experts           = e.experts;
  m.experts_per_token = e.per_token;
  m.shared_experts    = e.shared;
  m.expert_ffn        = e.ffn;
  m.dense_layers      = e.dense_layers;
  return m;
}

// DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json; DeepSeek-V3 technical report, 2024): MLA with
// a 512-rank KV latent and a 64-wide RoPE key; 128 heads of 128 + 64 (qk_nope_head_dim +
// qk_rope_head_dim) for Q and K; first_k_dense_replace 3 dense layers of intermediate_size 18432;
// 256 routed experts, 8 per token, 1 shared, of 2048; 671 G parameters, 37 G active (the
// report; the 14 G of the multi-token prediction module are left out, as the report does).
LlmModel deepseek_v3()
{
  LlmModel m      = moe("deepseek-v3", 671e9, {61, 7168, 128, 128, 192, 18432, 129280}, {256, 8, 1, 2048, 3});
  m.kv_lora_rank  = 512;
  m.rope_head_dim = 64;
  return m;
}

std::vector<LlmModel> with_kv_B(std::vector<LlmModel> models)
{
  for (auto& m : models)
    m.kv_B_per_token = kv_B_per_token(m);
  return models;
}

}  // namespace

const std::vector<LlmModel>& llm_presets()
{
  static const std::vector<LlmModel> presets = with_kv_B({
      // Llama 2 paper (Touvron et al. 2023, table 1) and meta-llama/Llama-2-{7b,13b,70b}-hf config.json.
      // These four keep the params they had before the catalogue, so results do not move.
      dense("llama2-7b", 6.74e9, {32, 4096, 32, 32, 128, 11008, 32000}),
      dense("llama2-13b", 13.0e9, {40, 5120, 40, 40, 128, 13824, 32000}),
      dense("llama2-70b", 69.0e9, {80, 8192, 64, 8, 128, 28672, 32000}),
      // Meta-Llama-3-70B model card (70.6 G) and config.json.
      dense("llama3-70b", 70.6e9, {80, 8192, 64, 8, 128, 28672, 128256}),
      // codellama/CodeLlama-34b-hf config.json (rope_theta 1e6 changes no cost); 33.7 G from its
      // shape (the card's "34B"), with untied embeddings. Common in public serving benchmarks.
      dense("codellama-34b", 33.7e9, {48, 8192, 64, 8, 128, 22016, 32000}),
      // mistralai/Mistral-7B-v0.1 config.json; 7.24 G parameters (model card). Its sliding window
      // (4096) is not modelled: contexts beyond it are charged full attention.
      dense("mistral-7b", 7.24e9, {32, 4096, 32, 8, 128, 14336, 32000}),
      // meta-llama/Llama-3.1-{8B,70B,405B} config.json; params: the Hugging Face model pages.
      dense("llama3.1-8b", 8.03e9, {32, 4096, 32, 8, 128, 14336, 128256}),
      dense("llama3.1-70b", 70.6e9, {80, 8192, 64, 8, 128, 28672, 128256}),
      dense("llama3.1-405b", 405.9e9, {126, 16384, 128, 8, 128, 53248, 128256}),
      // mistralai/Mixtral-8x7B-v0.1 config.json; Mistral AI, "Mixtral of experts" (2023):
      // 46.7 G parameters, 12.9 G active per token.
      moe("mixtral-8x7b", 46.7e9, {32, 4096, 32, 8, 128, 14336, 32000}, {8, 2, 0, 14336, 0}),
      // mistralai/Mixtral-8x22B-v0.1 config.json; Mistral AI, "Cheaper, Better, Faster, Stronger"
      // (2024): 141 G parameters, 39 G active.
      moe("mixtral-8x22b", 141e9, {56, 6144, 48, 8, 128, 16384, 32768}, {8, 2, 0, 16384, 0}),
      // Qwen/Qwen3-{8B,32B,30B-A3B,235B-A22B} config.json and model cards (parameters: 8.2 G,
      // 32.8 G, 30.5 G with 3.3 G activated, 235 G with 22 G activated). head_dim is 128 in every
      // config, not d_model / heads; the MoE configs' intermediate_size
      // (kept as ffn) is unused, every layer having experts.
      dense("qwen3-8b", 8.2e9, {36, 4096, 32, 8, 128, 12288, 151936}),
      dense("qwen3-32b", 32.8e9, {64, 5120, 64, 8, 128, 25600, 151936}),
      moe("qwen3-30b-a3b", 30.5e9, {48, 2048, 32, 4, 128, 6144, 151936}, {128, 8, 0, 768, 0}),
      moe("qwen3-235b-a22b", 235e9, {94, 4096, 64, 4, 128, 12288, 151936}, {128, 8, 0, 1536, 0}),
      deepseek_v3(),
  });
  return presets;
}

}  // namespace llsim
