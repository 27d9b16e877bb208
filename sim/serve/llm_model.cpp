#include "sim/serve/llm_model.hpp"

#include "sim/core/text.hpp"

namespace llsim {

namespace {

// K and V of every layer's KV heads, at the model's precision (docs/phases/serve.md).
double kv_bytes_per_token(const LlmModel& m)
{
  return 2.0 * static_cast<double>(m.layers * m.kv_heads * m.head_dim) * m.dtype_bytes;
}

LlmModel shaped(std::string name, double params, int64_t layers, int64_t d_model, int64_t kv_heads, int64_t head_dim)
{
  LlmModel m{std::move(name), params, layers, d_model, kv_heads, head_dim, 2, 0};
  m.kv_bytes_per_token = kv_bytes_per_token(m);
  return m;
}

}  // namespace

// Sources: the Llama 2 paper (Touvron et al. 2023, table 1 and the released configs) and the
// Llama 3 model card; FP16/BF16 weights and KV.
const std::vector<LlmModel>& llm_presets()
{
  static const std::vector<LlmModel> presets = {
      shaped("llama2-7b", 6.74e9, 32, 4096, 32, 128),
      shaped("llama2-13b", 13.0e9, 40, 5120, 40, 128),
      shaped("llama2-70b", 69.0e9, 80, 8192, 8, 128),
      shaped("llama3-70b", 70.6e9, 80, 8192, 8, 128),
  };
  return presets;
}

const ParamTable& llm_model_params()
{
  static const ParamTable t = {
      ParamSpec::text("preset",
                      "a known architecture (llsim models lists them); of the other keys, only dtype_bytes may "
                      "then be given")
          .may_be_absent(),
      ParamSpec::quantity("params", Dimension::Count, "parameters (weights read by every iteration)")
          .may_be_absent()
          .positive(),
      ParamSpec::integer("layers", "transformer layers").may_be_absent().at_least(1).at_most(10000),
      ParamSpec::integer("d_model", "hidden size").may_be_absent().at_least(1).at_most(1e6),
      ParamSpec::integer("kv_heads", "key/value heads (fewer than query heads with GQA)")
          .may_be_absent()
          .at_least(1)
          .at_most(1e4),
      ParamSpec::integer("head_dim", "dimension of one head").may_be_absent().at_least(1).at_most(1e5),
      ParamSpec::quantity("dtype_bytes", Dimension::Number, "bytes per weight and per KV element")
          .defaults("2")
          .positive(),
      ParamSpec::quantity("kv_bytes_per_token", Dimension::Size,
                          "KV bytes one token of context holds (instead of layers, kv_heads and head_dim)")
          .may_be_absent()
          .positive(),
  };
  return t;
}

LlmModel parse_llm_model(const Params& p)
{
  if (p.has("preset")) {
    for (const char* key : {"params", "layers", "d_model", "kv_heads", "head_dim", "kv_bytes_per_token"})
      if (p.has(key))
        p.fail(key, "give either 'preset' or the model's own keys, not both");
    const std::string name = p.text("preset");
    std::vector<std::string> names;
    for (LlmModel m : llm_presets()) {
      if (m.name == name) {
        m.dtype_bytes        = p.quantity("dtype_bytes");  // a preset is an architecture, served at any precision
        m.kv_bytes_per_token = kv_bytes_per_token(m);
        return m;
      }
      names.push_back(m.name);
    }
    p.fail("preset", "unknown model '" + name + "': " + suggestion(name, names));
  }
  if (!p.has("params"))
    p.fail("params", "required: the model's parameter count (e.g. 70G), or give a 'preset'");
  LlmModel m;
  m.name           = "custom";
  m.params         = p.quantity("params");
  m.dtype_bytes    = p.quantity("dtype_bytes");
  const bool shape = p.has("layers") || p.has("d_model") || p.has("kv_heads") || p.has("head_dim");
  if (shape) {
    for (const char* key : {"layers", "d_model", "kv_heads", "head_dim"})
      if (!p.has(key))
        p.fail(key, "required with the other shape keys (layers, d_model, kv_heads, head_dim)");
    m.layers             = p.integer("layers");
    m.d_model            = p.integer("d_model");
    m.kv_heads           = p.integer("kv_heads");
    m.head_dim           = p.integer("head_dim");
    m.kv_bytes_per_token = kv_bytes_per_token(m);
    if (p.has("kv_bytes_per_token"))
      p.fail("kv_bytes_per_token", "derived from layers, kv_heads, head_dim and dtype_bytes; give one or the other");
  } else if (p.has("kv_bytes_per_token")) {
    m.kv_bytes_per_token = p.quantity("kv_bytes_per_token");
  } else {
    p.fail("layers", "give the shape (layers, d_model, kv_heads, head_dim) or kv_bytes_per_token");
  }
  return m;
}

}  // namespace llsim
