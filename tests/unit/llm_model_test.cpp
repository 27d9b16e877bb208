// The model catalogue and the model keys (sim/serve/cost/llm_model.hpp, llm_presets.cpp): the presets
// that existed before the catalogue keep their figures, every preset's shape adds up to its
// published parameter count, KV bytes per token follow MHA, GQA and MLA, and a mixture of
// experts computes with its active params.
#include "sim/core/errors.hpp"
#include "sim/serve/cost/llm_model.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace llsim;

namespace {

LlmModel model(const std::string& text)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "model.yaml";
  return parse_llm_model(Params(YamlRef(YAML::Load(text), "model", source), llm_model_params()));
}

// Parameters from the shape, as a Llama-style decoder counts them: untied embedding and LM head,
// Q and O of heads x head_dim, K and V of kv_heads x head_dim, a gated MLP or routed experts with
// their router, two norms per layer and a final one.
double params_from_shape(const LlmModel& m)
{
  const double d = static_cast<double>(m.d_model), L = static_cast<double>(m.layers);
  const double attention =
      2 * d * static_cast<double>(m.heads * m.head_dim) + 2 * d * static_cast<double>(m.kv_heads * m.head_dim);
  const double mlp = m.moe() ? static_cast<double>(m.experts) * (3 * d * static_cast<double>(m.expert_ffn) + d)
                             : 3 * d * static_cast<double>(m.ffn);
  return 2 * static_cast<double>(m.vocab) * d + L * (attention + mlp + 2 * d) + d;
}

}  // namespace

TEST_CASE("llm model: the presets before the catalogue keep their figures", "[llm_model]")
{
  struct Old {
    const char* name;
    double params;
    int64_t layers, d_model, kv_heads, head_dim;
  };
  for (const Old& o : {Old{"llama2-7b", 6.74e9, 32, 4096, 32, 128}, Old{"llama2-13b", 13.0e9, 40, 5120, 40, 128},
                       Old{"llama2-70b", 69.0e9, 80, 8192, 8, 128}, Old{"llama3-70b", 70.6e9, 80, 8192, 8, 128}}) {
    const LlmModel m = model(std::string("{preset: ") + o.name + "}");
    CHECK(m.params == o.params);
    CHECK(m.active_params() == o.params);
    CHECK(m.layers == o.layers);
    CHECK(m.d_model == o.d_model);
    CHECK(m.kv_heads == o.kv_heads);
    CHECK(m.head_dim == o.head_dim);
    CHECK(m.attention_width() == o.d_model);  // roofline's attention flops do not move
    CHECK(m.kv_B_per_token == 2.0 * static_cast<double>(o.layers * o.kv_heads * o.head_dim) * 2);
  }
}

TEST_CASE("llm model: every preset's shape adds up to its published parameters", "[llm_model]")
{
  for (const LlmModel& m : llm_presets()) {
    if (m.attention() == Attention::Mla)
      continue;  // MLA's projections (q_lora_rank, ...) are not part of the shape llsim keeps
    INFO(m.name);
    CHECK(params_from_shape(m) == Approx(m.params).epsilon(0.01));
  }
}

TEST_CASE("llm model: MoE presets compute with their published active parameters", "[llm_model]")
{
  struct Card {
    const char* name;
    double total, active;
  };
  for (const Card& c :
       {Card{"mixtral-8x7b", 46.7e9, 12.9e9}, Card{"mixtral-8x22b", 141e9, 39e9}, Card{"qwen3-30b-a3b", 30.5e9, 3.3e9},
        Card{"qwen3-235b-a22b", 235e9, 22e9}, Card{"deepseek-v3", 671e9, 37e9}}) {
    INFO(c.name);
    const LlmModel m = model(std::string("{preset: ") + c.name + "}");
    CHECK(m.moe());
    CHECK(m.params == c.total);
    CHECK(m.weight_B() == c.total * 2);  // every expert is held
    CHECK(m.active_params() == Approx(c.active).epsilon(0.02));
  }
  // Mixtral 8x7B: 6 unused experts x 32 layers x 3 x 4096 x 14336.
  CHECK(model("{preset: mixtral-8x7b}").active_params() == 46.7e9 - 6.0 * 32 * 3 * 4096 * 14336);
}

TEST_CASE("llm model: KV bytes per token follow the attention type", "[llm_model]")
{
  const LlmModel mha = model("{preset: llama2-7b}");
  CHECK(mha.attention() == Attention::Mha);
  CHECK(mha.kv_B_per_token == 2.0 * 32 * 32 * 128 * 2);
  const LlmModel gqa = model("{preset: qwen3-30b-a3b}");
  CHECK(gqa.attention() == Attention::Gqa);
  CHECK(gqa.kv_B_per_token == 2.0 * 48 * 4 * 128 * 2);
  const LlmModel mla = model("{preset: deepseek-v3}");
  CHECK(mla.attention() == Attention::Mla);
  CHECK(mla.kv_B_per_token == 61.0 * (512 + 64) * 2);  // 70,272 B
  CHECK(model("{preset: deepseek-v3, dtype_bytes: 1}").kv_B_per_token == 61.0 * (512 + 64));
  const LlmModel own = model(
      "{params: 10G, layers: 10, d_model: 1024, kv_heads: 8, head_dim: 64, kv_lora_rank: 256, rope_head_dim: 32}");
  CHECK(own.kv_B_per_token == 10.0 * (256 + 32) * 2);
}

TEST_CASE("llm model: explicit MoE keys", "[llm_model]")
{
  const std::string shape = "params: 46.7G, layers: 32, d_model: 4096, kv_heads: 8, head_dim: 128, heads: 32";
  const LlmModel m        = model("{" + shape + ", experts: 8, experts_per_token: 2, expert_ffn: 14336}");
  CHECK(m.active_params() == model("{preset: mixtral-8x7b}").active_params());
  // Two matrices per expert instead of three; one dense layer fewer with experts.
  CHECK(
      model("{" + shape + ", experts: 8, experts_per_token: 2, expert_ffn: 14336, gated_mlp: false}").active_params() ==
      46.7e9 - 6.0 * 32 * 2 * 4096 * 14336);
  CHECK(
      model("{" + shape + ", experts: 8, experts_per_token: 2, expert_ffn: 14336, dense_layers: 1}").active_params() ==
      46.7e9 - 6.0 * 31 * 3 * 4096 * 14336);
  CHECK(model("{" + shape + "}").active_params() == 46.7e9);
}

TEST_CASE("llm model: errors", "[llm_model]")
{
  CHECK_THROWS_WITH(model("{preset: llama3.1-8}"),
                    Catch::Contains("unknown model 'llama3.1-8'") && Catch::Contains("did you mean 'llama3.1-8b'"));
  CHECK_THROWS_WITH(model("{preset: mixtral-8x7b, experts: 4}"),
                    Catch::Contains("model.experts") && Catch::Contains("either 'preset' or the model's own keys"));
  const std::string shape = "params: 46.7G, layers: 32, d_model: 4096, kv_heads: 8, head_dim: 128";
  CHECK_THROWS_WITH(model("{" + shape + ", experts: 8, expert_ffn: 14336}"),
                    Catch::Contains("experts_per_token: required with 'experts'"));
  CHECK_THROWS_WITH(model("{" + shape + ", experts: 8, experts_per_token: 9, expert_ffn: 14336}"),
                    Catch::Contains("more than the 8 experts"));
  CHECK_THROWS_WITH(model("{" + shape + ", experts_per_token: 2}"), Catch::Contains("give 'experts' too"));
  CHECK_THROWS_WITH(model("{params: 1G, layers: 32, d_model: 4096, kv_heads: 8, head_dim: 128, experts: 8, "
                          "experts_per_token: 2, expert_ffn: 14336}"),
                    Catch::Contains("fewer than the experts' own weights"));
  CHECK_THROWS_WITH(model("{" + shape + ", kv_lora_rank: 512}"),
                    Catch::Contains("needs both kv_lora_rank and rope_head_dim"));
  CHECK_THROWS_WITH(model("{" + shape + ", heads: 12}"), Catch::Contains("multiple of kv_heads"));
  CHECK_THROWS_WITH(model("{params: 7G, experts: 8}"), Catch::Contains("layers: required with the other shape keys"));
}
