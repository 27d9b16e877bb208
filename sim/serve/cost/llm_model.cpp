#include "sim/serve/cost/llm_model.hpp"

#include "sim/core/text.hpp"

namespace llsim {

namespace {

const char* const kShapeKeys[] = {"layers", "d_model", "kv_heads", "head_dim"};
const char* const kOwnKeys[]   = {
      "params",        "layers",  "d_model",           "kv_heads",       "head_dim",   "heads",        "kv_lora_rank",
      "rope_head_dim", "experts", "experts_per_token", "shared_experts", "expert_ffn", "dense_layers", "gated_mlp",
      "ffn",           "vocab",   "kv_bytes_per_token"};

int64_t integer_or(const Params& p, const char* key, int64_t otherwise)
{
  return p.has(key) ? p.integer(key) : otherwise;
}

LlmModel from_preset(const Params& p)
{
  for (const char* key : kOwnKeys)
    if (p.has(key))
      p.fail(key, "give either 'preset' or the model's own keys, not both");
  const std::string name = p.text("preset");
  std::vector<std::string> names;
  for (LlmModel m : llm_presets()) {
    if (m.name == name) {
      m.dtype_B        = p.quantity("dtype_bytes");  // a preset is an architecture, served at any precision
      m.kv_B_per_token = kv_B_per_token(m);
      return m;
    }
    names.push_back(m.name);
  }
  p.fail("preset", unknown_word("model", name, names));
}

// MLA's two keys, which replace kv_heads x head_dim in the KV bytes.
void parse_mla(const Params& p, LlmModel& m)
{
  if (p.has("kv_lora_rank") != p.has("rope_head_dim"))
    p.fail(p.has("kv_lora_rank") ? "kv_lora_rank" : "rope_head_dim", "MLA needs both kv_lora_rank and rope_head_dim");
  m.kv_lora_rank  = integer_or(p, "kv_lora_rank", 0);
  m.rope_head_dim = integer_or(p, "rope_head_dim", 0);
}

void parse_experts(const Params& p, LlmModel& m)
{
  if (!p.has("experts")) {
    for (const char* key : {"experts_per_token", "shared_experts", "expert_ffn", "dense_layers"})
      if (p.has(key))
        p.fail(key, "belongs to a mixture of experts: give 'experts' too");
    return;
  }
  for (const char* key : {"experts_per_token", "expert_ffn"})
    if (!p.has(key))
      p.fail(key, "required with 'experts' (a mixture of experts)");
  m.experts           = p.integer("experts");
  m.experts_per_token = p.integer("experts_per_token");
  m.shared_experts    = integer_or(p, "shared_experts", 0);
  m.expert_ffn        = p.integer("expert_ffn");
  m.dense_layers      = integer_or(p, "dense_layers", 0);
  if (m.experts_per_token > m.experts)
    p.fail("experts_per_token", "more than the " + std::to_string(m.experts) + " experts");
  if (m.dense_layers >= m.layers)
    p.fail("dense_layers", "must leave at least one of the " + std::to_string(m.layers) + " layers to the experts");
  if (!(m.active_params() > 0))
    p.fail("params", "fewer than the experts' own weights (" + format_number(m.params - m.active_params()) +
                         " parameters unused per token): check params, experts, expert_ffn and d_model");
}

void parse_shape(const Params& p, LlmModel& m)
{
  for (const char* key : kShapeKeys)
    if (!p.has(key))
      p.fail(key, "required with the other shape keys (layers, d_model, kv_heads, head_dim)");
  m.layers    = p.integer("layers");
  m.d_model   = p.integer("d_model");
  m.kv_heads  = p.integer("kv_heads");
  m.head_dim  = p.integer("head_dim");
  m.heads     = integer_or(p, "heads", 0);
  m.ffn       = integer_or(p, "ffn", 0);
  m.vocab     = integer_or(p, "vocab", 0);
  m.gated_mlp = !p.has("gated_mlp") || p.flag("gated_mlp");
  if (m.heads > 0 && m.heads % m.kv_heads != 0)
    p.fail("heads", "must be a multiple of kv_heads (" + std::to_string(m.kv_heads) + ")");
  parse_mla(p, m);
  parse_experts(p, m);
  m.kv_B_per_token = kv_B_per_token(m);
  if (p.has("kv_bytes_per_token"))
    p.fail("kv_bytes_per_token", "derived from the shape and dtype_bytes; give one or the other");
}

// Parameters of `n` routed experts over the MoE layers.
double routed_params(const LlmModel& m, int64_t n)
{
  const double matrices = m.gated_mlp ? 3 : 2;
  return static_cast<double>(n) * static_cast<double>(m.layers - m.dense_layers) * matrices *
         static_cast<double>(m.d_model) * static_cast<double>(m.expert_ffn);
}

}  // namespace

double LlmModel::active_params() const
{
  if (!moe())
    return params;
  return params - routed_params(*this, experts - experts_per_token);
}

double LlmModel::rank_weight_B(int64_t ranks) const
{
  const double shared_out = routed_params(*this, experts) * (1 - 1 / static_cast<double>(ranks));
  return (params - shared_out) * dtype_B;
}

Attention LlmModel::attention() const
{
  if (kv_lora_rank > 0)
    return Attention::Mla;
  return heads > kv_heads ? Attention::Gqa : Attention::Mha;
}

const char* attention_name(Attention a)
{
  switch (a) {
  case Attention::Mla:
    return "MLA";
  case Attention::Gqa:
    return "GQA";
  case Attention::Mha:
    break;
  }
  return "MHA";
}

double kv_B_per_token(const LlmModel& m)
{
  if (m.attention() == Attention::Mla)
    return static_cast<double>(m.layers * (m.kv_lora_rank + m.rope_head_dim)) * m.dtype_B;
  return 2.0 * static_cast<double>(m.layers * m.kv_heads * m.head_dim) * m.dtype_B;
}

const ParamTable& llm_model_params()
{
  static const ParamTable t = {
      ParamSpec::text("preset",
                      "a known architecture (llsim models lists them); of the other keys, only dtype_bytes may "
                      "then be given")
          .may_be_absent(),
      ParamSpec::quantity("params", Dimension::Count, "parameters, all of them (weights held and read every iteration)")
          .may_be_absent()
          .positive(),
      ParamSpec::integer("layers", "transformer layers").may_be_absent().at_least(1).at_most(10000),
      ParamSpec::integer("d_model", "hidden size").may_be_absent().at_least(1).at_most(1e6),
      ParamSpec::integer("kv_heads", "key/value heads (fewer than query heads with GQA)")
          .may_be_absent()
          .at_least(1)
          .at_most(1e4),
      ParamSpec::integer("head_dim", "dimension of one head").may_be_absent().at_least(1).at_most(1e5),
      ParamSpec::integer("heads", "query heads; roofline's attention is heads x head_dim wide (d_model when absent)")
          .may_be_absent()
          .at_least(1)
          .at_most(1e4),
      ParamSpec::integer("kv_lora_rank", "MLA: rank of the compressed KV latent one token caches per layer")
          .may_be_absent()
          .at_least(1)
          .at_most(1e6),
      ParamSpec::integer("rope_head_dim", "MLA: dimension of the decoupled RoPE key cached beside the latent")
          .may_be_absent()
          .at_least(1)
          .at_most(1e5),
      ParamSpec::integer("experts", "routed experts per MoE layer (absent: a dense model)")
          .may_be_absent()
          .at_least(1)
          .at_most(1e6),
      ParamSpec::integer("experts_per_token", "routed experts each token reaches (top-k)")
          .may_be_absent()
          .at_least(1)
          .at_most(1e6),
      ParamSpec::integer("expert_ffn", "intermediate size of one expert").may_be_absent().at_least(1).at_most(1e7),
      ParamSpec::integer("dense_layers", "leading layers with a dense MLP instead of experts (default 0)")
          .may_be_absent()
          .at_least(0)
          .at_most(10000),
      ParamSpec::flag("gated_mlp", "true (default): an MLP or expert has 3 matrices (SwiGLU), false: 2; sets the "
                                   "experts' share of params")
          .may_be_absent(),
      ParamSpec::integer("shared_experts",
                         "experts every token reaches, each of expert_ffn (counted in params; default 0)")
          .may_be_absent()
          .at_least(0)
          .at_most(1e6),
      ParamSpec::integer("ffn", "intermediate size of a dense MLP (the operators model's MLP GEMMs)")
          .may_be_absent()
          .at_least(1)
          .at_most(1e7),
      ParamSpec::integer("vocab", "vocabulary size (the operators model's LM head)")
          .may_be_absent()
          .at_least(1)
          .at_most(1e8),
      ParamSpec::quantity("dtype_bytes", Dimension::Number, "bytes per weight and per KV element")
          .defaults("2")
          .positive(),
      ParamSpec::quantity("kv_bytes_per_token", Dimension::Size,
                          "KV bytes one token of context holds (instead of the shape)")
          .may_be_absent()
          .positive(),
  };
  return t;
}

LlmModel parse_llm_model(const Params& p)
{
  if (p.has("preset"))
    return from_preset(p);
  if (!p.has("params"))
    p.fail("params", "required: the model's parameter count (e.g. 70G), or give a 'preset'");
  LlmModel m;
  m.name     = "custom";
  m.params   = p.quantity("params");
  m.dtype_B  = p.quantity("dtype_bytes");
  bool shape = false;
  for (const char* key : kOwnKeys)
    shape = shape || (p.has(key) && std::string(key) != "params" && std::string(key) != "kv_bytes_per_token");
  if (shape)
    parse_shape(p, m);
  else if (p.has("kv_bytes_per_token"))
    m.kv_B_per_token = p.quantity("kv_bytes_per_token");
  else
    p.fail("layers", "give the shape (layers, d_model, kv_heads, head_dim) or kv_bytes_per_token");
  return m;
}

}  // namespace llsim
