#include "sim/serve/cost/operator_costs.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

namespace {

constexpr const char* kOpNames[kOpCount] = {"embedding",          "input_layernorm", "attn_pre_proj",
                                            "attn_rope",          "attn_prefill",    "attn_decode",
                                            "attn_post_proj",     "attn_all_reduce", "post_attention_layernorm",
                                            "mlp_up_proj",        "mlp_act",         "mlp_down_proj",
                                            "moe_router",         "moe_dispatch",    "moe_experts",
                                            "moe_combine",        "mlp_all_reduce",  "add",
                                            "pipeline_send_recv", "final_layernorm", "lm_head",
                                            "cpu_overhead"};

double gemm_efficiency(double tokens, const OperatorCoefficients& c)
{
  return c.gemm_efficiency * tokens / (tokens + c.gemm_half_tokens);
}

double memory_seconds(double bytes, const OperatorDevice& d, const OperatorCoefficients& c)
{
  return bytes / (d.hbm_Bps * c.bandwidth_efficiency);
}

// A memory-bound kernel: its launch, then its bytes.
double memory_kernel(double bytes, const OperatorDevice& d, const OperatorCoefficients& c)
{
  return c.kernel_launch_s + memory_seconds(bytes, d, c);
}

// A kernel of `flop` at the GEMM efficiency of `tokens`, or of `bytes`, whichever takes longer.
double roofline(double flop, double tokens, double bytes, const OperatorDevice& d, const OperatorCoefficients& c)
{
  const double compute = flop > 0 ? flop / (d.peak_flops * gemm_efficiency(tokens, c)) : 0;
  return c.kernel_launch_s + std::max(compute, memory_seconds(bytes, d, c));
}

// FlashAttention-style kernels: their fixed time, then their flops at their own efficiency or
// the KV they read, whichever takes longer.
double attention_kernel(double flop, double bytes, const OperatorDevice& d, const OperatorCoefficients& c)
{
  return c.attention_overhead_s + std::max(flop / (d.peak_flops * c.attention_efficiency), memory_seconds(bytes, d, c));
}

// An all-to-all over `gpus` GPUs of `bytes` from each: (gpus - 1) steps of 1/gpus of them.
double all_to_all_seconds(double bytes, int64_t gpus, const OperatorDevice& d, const OperatorCoefficients& c)
{
  if (gpus <= 1 || bytes <= 0)
    return 0;
  const double n = static_cast<double>(gpus);
  return (n - 1) * (c.link_latency_s + bytes / n / (d.link_Bps * c.link_efficiency));
}

// The shape of one layer on one GPU: widths after the tensor-parallel split.
struct LayerShape {
  double d, b, t;
  double q_width;     // query heads x head_dim on this GPU
  double qkv_width;   // output of the QKV projection on this GPU
  double rope_width;  // rotated query and key widths
  double kv_B;        // KV bytes one token of context holds in one layer on this GPU
};

LayerShape layer_shape(const LlmModel& m, const OperatorDevice& dev)
{
  LayerShape s{};
  s.d                 = static_cast<double>(m.d_model);
  s.b                 = m.dtype_B;
  s.t                 = static_cast<double>(dev.tp);
  s.q_width           = static_cast<double>(m.attention_width()) / s.t;
  const double layers = static_cast<double>(m.layers);
  if (m.attention() == Attention::Mla) {
    // MLA caches one latent per token, the same on every GPU; its projection writes it.
    const double latent = static_cast<double>(m.kv_lora_rank + m.rope_head_dim);
    s.qkv_width         = s.q_width + latent;
    s.rope_width        = s.q_width / static_cast<double>(m.head_dim) * static_cast<double>(m.rope_head_dim) +
                   static_cast<double>(m.rope_head_dim);
    s.kv_B = m.kv_B_per_token / layers;
  } else {
    // KV heads split across the GPUs, each GPU keeping at least one.
    const double kv_heads = std::max(1.0, static_cast<double>(m.kv_heads) / s.t);
    const double hd       = static_cast<double>(m.head_dim);
    s.qkv_width           = s.q_width + 2 * kv_heads * hd;
    s.rope_width          = s.q_width + kv_heads * hd;
    s.kv_B                = 2 * kv_heads * hd * s.b;
  }
  return s;
}

// Attention, the projections and norms around it, and the residual adds: one layer.
void attention_layer(const BatchWork& w, double tokens, const LayerShape& s, const OperatorDevice& d,
                     const OperatorCoefficients& c, double layers, OpTimes& t)
{
  auto add = [&](Op op, double seconds) { t[static_cast<size_t>(op)] += layers * seconds; };
  add(Op::InputLayernorm, memory_kernel(2 * tokens * s.d * s.b, d, c));
  add(Op::AttnPreProj, gemm_seconds(tokens, s.d, s.qkv_width, s.b, d, c));
  add(Op::AttnRope, memory_kernel(2 * tokens * s.rope_width * s.b, d, c));
  if (w.prefill_tokens > 0) {
    const double n = static_cast<double>(w.prefill_tokens);
    add(Op::AttnPrefill, attention_kernel(4 * s.q_width * w.prefill_pairs,
                                          w.prefill_kv_tokens * s.kv_B + 2 * n * s.q_width * s.b, d, c));
  }
  // Decodes over no context are FastDecode's S-part, whose attention runs on its R-workers.
  if (w.decodes > 0 && w.decode_context > 0) {
    const double n = static_cast<double>(w.decodes);
    add(Op::AttnDecode,
        attention_kernel(4 * s.q_width * w.decode_context, w.decode_context * s.kv_B + 2 * n * s.q_width * s.b, d, c));
  }
  add(Op::AttnPostProj, gemm_seconds(tokens, s.q_width, s.d, s.b, d, c));
  add(Op::AttnAllReduce, all_reduce_seconds(tokens * s.d * s.b, d, c));
  add(Op::PostAttentionLayernorm, memory_kernel(2 * tokens * s.d * s.b, d, c));
  // One residual add, as Vidur's profile counts it (vLLM fuses the other into a norm).
  add(Op::Add, memory_kernel(3 * tokens * s.d * s.b, d, c));
}

void dense_mlp(const LlmModel& m, double tokens, const LayerShape& s, const OperatorDevice& d,
               const OperatorCoefficients& c, double layers, OpTimes& t)
{
  const double ffn = static_cast<double>(m.ffn) / s.t;
  auto add         = [&](Op op, double seconds) { t[static_cast<size_t>(op)] += layers * seconds; };
  add(Op::MlpUpProj, gemm_seconds(tokens, s.d, (m.gated_mlp ? 2 : 1) * ffn, s.b, d, c));
  add(Op::MlpAct, memory_kernel(tokens * ffn * s.b * (m.gated_mlp ? 3 : 2), d, c));
  add(Op::MlpDownProj, gemm_seconds(tokens, ffn, s.d, s.b, d, c));
  add(Op::MlpAllReduce, all_reduce_seconds(tokens * s.d * s.b, d, c));
}

// The experts' time on one GPU of `load` (routed) in a layer of `tokens` tokens per rank: shared
// experts, which every token reaches, are each rank's own, split over its tensor-parallel GPUs.
double experts_seconds(const LlmModel& m, double tokens, const MoeLoad& load, const LayerShape& s,
                       const OperatorDevice& d, const OperatorCoefficients& c)
{
  const double shared  = static_cast<double>(m.shared_experts) / s.t;
  const double matrix  = (m.gated_mlp ? 3 : 2) * s.d * static_cast<double>(m.expert_ffn);  // one expert
  const double pairs   = load.pairs + tokens * shared;
  const double experts = load.experts + shared;
  const double bytes   = (experts * matrix + 2 * pairs * s.d) * s.b;
  // The GEMM efficiency of the tokens an expert computes at once.
  const double per_expert = load.experts > 0 ? load.pairs / load.experts : tokens;
  return roofline(2 * pairs * matrix, per_expert, bytes, d, c);
}

// The MoE layers span the dp ranks' GPUs, each rank's batch mirrored on the others (the ranks
// equally loaded): their experts see dp x the batch's tokens. Routed experts read the weights of
// those the tokens reach (the mean on every layer, or each layer's drawn loads, its slowest GPU
// setting its time); shared experts are always reached.
void moe_mlp(const LlmModel& m, double tokens, const LayerShape& s, const OperatorDevice& d,
             const OperatorCoefficients& c, double layers, const std::vector<std::vector<MoeLoad>>* loads, OpTimes& t)
{
  auto add            = [&](Op op, double seconds) { t[static_cast<size_t>(op)] += layers * seconds; };
  const double k      = static_cast<double>(m.experts_per_token);
  const double all    = tokens * static_cast<double>(d.dp);
  const double hidden = tokens * s.d * s.b;  // one rank's hidden states
  add(Op::MoeRouter, gemm_seconds(tokens, s.d, static_cast<double>(m.experts), s.b, d, c));
  if (loads == nullptr) {
    add(Op::MoeExperts,
        experts_seconds(m, tokens, even_moe_load(m, all, experts_reached(m.experts, m.experts_per_token, all), d), s, d,
                        c));
  } else {
    for (const std::vector<MoeLoad>& layer : *loads) {
      double slowest = 0;
      for (const MoeLoad& gpu : layer)
        slowest = std::max(slowest, experts_seconds(m, tokens, gpu, s, d, c));
      t[static_cast<size_t>(Op::MoeExperts)] += slowest;
    }
  }
  if (d.moe_comm == MoeComm::AllToAll) {  // each token to its k experts' GPUs and back
    add(Op::MoeDispatch, all_to_all_seconds(k * hidden, d.dp * d.tp, d, c));
    add(Op::MoeCombine, all_to_all_seconds(k * hidden, d.dp * d.tp, d, c));
    return;
  }
  // Every rank gathers the others' hidden states, and takes back the sums of its own; within a
  // rank, the tensor-parallel GPUs all-reduce their partial outputs, as a dense MLP's.
  add(Op::MoeDispatch, all_gather_seconds(hidden, d.dp, d, c));
  add(Op::MoeCombine, all_gather_seconds(hidden, d.dp, d, c));
  add(Op::MlpAllReduce, all_reduce_seconds(hidden, d, c));
}

}  // namespace

const char* op_name(Op op)
{
  return kOpNames[static_cast<size_t>(op)];
}

double total(const OpTimes& t)
{
  double sum = 0;
  for (double s : t)
    sum += s;
  return sum;
}

OperatorDevice operator_device(const GpuSpec& gpu, const LlmModel& model, int64_t tp, bool expert_parallel, int64_t pp)
{
  OperatorDevice d;
  d.tp              = tp;
  d.pp              = pp;
  d.hbm_Bps         = gpu.hbm_Bps;
  d.link_Bps        = gpu.link_Bps;
  d.expert_parallel = expert_parallel;
  d.peak_flops      = model.dtype_B <= 1 && gpu.fp8_flops > 0 ? gpu.fp8_flops : gpu.flops;
  return d;
}

double experts_reached(int64_t experts, int64_t per_token, double tokens)
{
  const double e = static_cast<double>(experts);
  return e * (1 - std::pow(1 - static_cast<double>(per_token) / e, tokens));
}

double draw_experts_reached(int64_t experts, int64_t per_token, int64_t tokens, Rng& rng)
{
  int64_t reached = 0;
  for (int64_t i = 0; i < tokens && reached < experts; ++i) {
    // The token's j-th pick is one of the experts - j it has not picked; a new one with
    // probability (not reached yet and not picked) / (not picked).
    int64_t fresh = 0;
    for (int64_t j = 0; j < per_token; ++j)
      if (rng.uniform() * static_cast<double>(experts - j) < static_cast<double>(experts - reached - fresh))
        ++fresh;
    reached += fresh;
  }
  return static_cast<double>(reached);
}

double gemm_seconds(double m, double k, double n, double dtype_B, const OperatorDevice& d,
                    const OperatorCoefficients& c)
{
  if (m <= 0)
    return 0;
  return roofline(2 * m * k * n, m, (k * n + m * k + m * n) * dtype_B, d, c);
}

double all_gather_seconds(double bytes, int64_t ranks, const OperatorDevice& d, const OperatorCoefficients& c)
{
  if (ranks <= 1 || bytes <= 0)
    return 0;
  return static_cast<double>(ranks - 1) * (c.link_latency_s + bytes / (d.link_Bps * c.link_efficiency));
}

MoeLoad even_moe_load(const LlmModel& m, double tokens, double reached, const OperatorDevice& d)
{
  const double gpus = static_cast<double>(d.dp * d.tp);
  return {tokens * static_cast<double>(m.experts_per_token) / gpus, reached / gpus};
}

std::vector<MoeLoad> draw_expert_parallel_loads(int64_t experts, int64_t per_token, int64_t tokens, int64_t gpus,
                                                Rng& rng)
{
  // The tokens x k picks, each uniform over the experts: a multinomial, drawn pick by pick when
  // there are few, else shared out over the experts one after the other, each taking
  // Binomial(picks left, 1 / experts left).
  std::vector<int64_t> picked(static_cast<size_t>(experts), 0);
  int64_t left = tokens * per_token;
  if (left <= 16 * experts) {
    for (; left > 0; --left)
      picked[std::min(experts - 1, static_cast<int64_t>(rng.uniform() * static_cast<double>(experts)))] += 1;
  } else {
    for (int64_t e = 0; e < experts && left > 0; ++e) {
      picked[static_cast<size_t>(e)] =
          e + 1 == experts ? left : binomial(rng, left, 1 / static_cast<double>(experts - e));
      left -= picked[static_cast<size_t>(e)];
    }
  }
  std::vector<MoeLoad> loads(static_cast<size_t>(gpus));
  for (int64_t e = 0; e < experts; ++e) {
    MoeLoad& gpu = loads[static_cast<size_t>(e * gpus / experts)];
    gpu.pairs += static_cast<double>(picked[static_cast<size_t>(e)]);
    gpu.experts += picked[static_cast<size_t>(e)] > 0 ? 1 : 0;
  }
  return loads;
}

double all_reduce_seconds(double bytes, const OperatorDevice& d, const OperatorCoefficients& c)
{
  if (d.tp <= 1 || bytes <= 0)
    return 0;
  const double t = static_cast<double>(d.tp);
  return 2 * (t - 1) * (c.link_latency_s + bytes / t / (d.link_Bps * c.link_efficiency));
}

double pipeline_seconds(double bytes, const OperatorDevice& d, const OperatorCoefficients& c)
{
  if (d.pp <= 1 || bytes <= 0)
    return 0;
  return static_cast<double>(d.pp - 1) * (c.link_latency_s + bytes / (d.link_Bps * c.link_efficiency));
}

OpTimes operator_times(const LlmModel& m, const BatchWork& w, const OperatorDevice& d, const OperatorCoefficients& c,
                       const std::vector<std::vector<MoeLoad>>* loads, double run_tokens)
{
  OpTimes t{};
  if (w.empty())
    return t;
  const LayerShape s       = layer_shape(m, d);
  const double tokens      = run_tokens > 0 ? run_tokens : static_cast<double>(w.prefill_tokens + w.decodes);
  const double sequences   = static_cast<double>(w.prefills + w.decodes);
  const int64_t moe_layers = m.moe() ? m.layers - m.dense_layers : 0;
  attention_layer(w, tokens, s, d, c, static_cast<double>(m.layers), t);
  if (m.layers > moe_layers)
    dense_mlp(m, tokens, s, d, c, static_cast<double>(m.layers - moe_layers), t);
  if (moe_layers > 0)
    moe_mlp(m, tokens, s, d, c, static_cast<double>(moe_layers), loads, t);
  t[static_cast<size_t>(Op::PipelineSendRecv)] = pipeline_seconds(tokens * s.d * s.b, d, c);
  t[static_cast<size_t>(Op::Embedding)]        = memory_kernel(tokens * s.d * s.b, d, c);
  t[static_cast<size_t>(Op::FinalLayernorm)]   = memory_kernel(2 * tokens * s.d * s.b, d, c);
  // Logits only for each sequence's last token, as vLLM computes them.
  t[static_cast<size_t>(Op::LmHead)]      = gemm_seconds(sequences, s.d, static_cast<double>(m.vocab) / s.t, s.b, d, c);
  t[static_cast<size_t>(Op::CpuOverhead)] = c.cpu_per_iteration_s + c.cpu_per_sequence_s * sequences;
  return t;
}

double OperatorCoefficients::*kernel_member(KernelCoefficient k)
{
  switch (k) {
  case KernelCoefficient::GemmEfficiency:
    return &OperatorCoefficients::gemm_efficiency;
  case KernelCoefficient::GemmHalfTokens:
    return &OperatorCoefficients::gemm_half_tokens;
  case KernelCoefficient::BandwidthEfficiency:
    return &OperatorCoefficients::bandwidth_efficiency;
  case KernelCoefficient::KernelLaunch:
    break;
  }
  return &OperatorCoefficients::kernel_launch_s;
}

}  // namespace llsim
