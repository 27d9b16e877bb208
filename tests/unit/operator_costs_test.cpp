// The operators model's arithmetic (sim/serve/cost/operator_costs.hpp): GEMMs, all-reduces and the
// experts a batch reaches against their closed forms, a mixture of experts as vLLM runs it (the
// hidden state moved once per MoE layer by the allgather-reducescatter backend and k times by an
// all-to-all, experts shared out over data-parallel ranks, each GPU's drawn share of them, the
// weights a rank holds), and measured curves read back exactly.
#include "sim/core/piecewise_linear.hpp"
#include "sim/serve/cost/operator_costs.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using namespace llsim;

namespace {

LlmModel preset(const std::string& name)
{
  for (const LlmModel& m : llm_presets())
    if (m.name == name)
      return m;
  FAIL("no preset " << name);
  return {};
}

OperatorDevice device(int64_t tp)
{
  OperatorDevice d;
  d.peak_flops = 1e15;
  d.hbm_Bps    = 2e12;
  d.link_Bps   = 300e9;
  d.tp         = tp;
  return d;
}

double op(const OpTimes& t, Op o)
{
  return t[static_cast<size_t>(o)];
}

// `tp` GPUs of 1 Pflop/s and 2 TB/s per rank, `dp` ranks, joined by links of 100 GB/s.
OperatorDevice ranks(int64_t tp, int64_t dp, bool expert_parallel, MoeComm comm = MoeComm::AllgatherReduceScatter)
{
  OperatorDevice d;
  d.peak_flops      = 1e15;
  d.hbm_Bps         = 2e12;
  d.link_Bps        = 100e9;
  d.tp              = tp;
  d.dp              = dp;
  d.expert_parallel = expert_parallel;
  d.moe_comm        = comm;
  return d;
}

OperatorCoefficients coefficients()
{
  OperatorCoefficients c;
  c.link_latency_s  = 5e-6;
  c.link_efficiency = 0.5;
  return c;
}

}  // namespace

TEST_CASE("a GEMM is bound by its weights with few tokens and by compute at an efficiency growing with tokens")
{
  OperatorCoefficients c;
  c.kernel_launch_s      = 3e-6;
  const OperatorDevice d = device(1);
  // 1 token by 8192 x 8192: bytes (K N + M K + M N) x 2 over 2 TB/s x 0.8.
  const double weights = (8192.0 * 8192 + 2 * 8192) * 2;
  CHECK(gemm_seconds(1, 8192, 8192, 2, d, c) == Approx(3e-6 + weights / (2e12 * 0.8)).epsilon(1e-12));
  // 8192 tokens: 2 M K N flop at 0.7 x M / (M + 64) of the peak.
  const double flop = 2.0 * 8192 * 8192 * 8192;
  CHECK(gemm_seconds(8192, 8192, 8192, 2, d, c) ==
        Approx(3e-6 + flop / (1e15 * 0.7 * 8192 / (8192 + 64))).epsilon(1e-12));
  CHECK(gemm_seconds(0, 8192, 8192, 2, d, c) == 0);
}

TEST_CASE("a ring all-reduce takes 2 (t-1) steps of latency and B/t bytes; one GPU needs none")
{
  OperatorCoefficients c;
  c.link_latency_s  = 5e-6;
  c.link_efficiency = 0.5;
  CHECK(all_reduce_seconds(1e6, device(1), c) == 0);
  CHECK(all_reduce_seconds(1e6, device(2), c) == Approx(2 * (5e-6 + 0.5e6 / 150e9)).epsilon(1e-12));
  CHECK(all_reduce_seconds(1e6, device(8), c) == Approx(14 * (5e-6 + 1e6 / 8 / 150e9)).epsilon(1e-12));
}

TEST_CASE("going to TP2 adds exactly two all-reduces per layer per iteration")
{
  const LlmModel m = preset("llama2-70b");
  BatchWork w;
  w.add_prefill(0, 100);
  w.add_decodes(3, 50);
  OperatorCoefficients c;
  const OpTimes one = operator_times(m, w, device(1), c), two = operator_times(m, w, device(2), c);
  CHECK(op(one, Op::AttnAllReduce) == 0);
  CHECK(op(one, Op::MlpAllReduce) == 0);
  const double each = all_reduce_seconds(103.0 * 8192 * 2, device(2), c);
  CHECK(op(two, Op::AttnAllReduce) == Approx(80 * each).epsilon(1e-12));
  CHECK(op(two, Op::MlpAllReduce) == Approx(80 * each).epsilon(1e-12));
}

TEST_CASE("T tokens reach E (1 - (1 - k/E)^T) experts: k for one token, nearly all for many")
{
  CHECK(experts_reached(8, 2, 1) == 2);
  CHECK(experts_reached(128, 8, 1) == Approx(8).epsilon(1e-12));
  CHECK(experts_reached(8, 2, 2) == Approx(8 * (1 - 0.75 * 0.75)).epsilon(1e-12));
  CHECK(experts_reached(128, 8, 1000) > 127.99);
  CHECK(experts_reached(128, 8, 1000) <= 128);
}

TEST_CASE("drawn experts: k for one token, all for many, and the mean E (1 - (1 - k/E)^T) on average")
{
  Rng rng(42);
  CHECK(draw_experts_reached(128, 8, 1, rng) == 8);
  CHECK(draw_experts_reached(128, 8, 100000, rng) == 128);
  for (int64_t tokens : {2, 8, 32}) {
    double sum      = 0;
    const int draws = 4000;
    for (int i = 0; i < draws; ++i)
      sum += draw_experts_reached(128, 8, tokens, rng);
    // The mean of 4,000 draws, each with a spread of a few experts: within 0.5% of the formula.
    CHECK(sum / draws == Approx(experts_reached(128, 8, static_cast<double>(tokens))).epsilon(0.005));
  }
}

TEST_CASE("a decode at batch 1 reads the weights of the shared and k routed experts, exactly")
{
  for (const char* name : {"mixtral-8x7b", "qwen3-30b-a3b", "deepseek-v3"}) {
    CAPTURE(name);
    const LlmModel m = preset(name);
    OperatorCoefficients c;
    c.kernel_launch_s = 0;
    BatchWork w;
    w.add_decode(1000);
    const OpTimes t         = operator_times(m, w, device(8), c);
    const double d          = static_cast<double>(m.d_model);
    const double matrix     = (m.gated_mlp ? 3 : 2) * d * static_cast<double>(m.expert_ffn);
    const double experts    = static_cast<double>(m.experts_per_token + m.shared_experts);
    const double bytes      = (experts * matrix + 2 * experts * d) * m.dtype_B / 8;
    const double moe_layers = static_cast<double>(m.layers - m.dense_layers);
    CHECK(op(t, Op::MoeExperts) == Approx(moe_layers * bytes / (2e12 * 0.8)).epsilon(1e-12));
    // A large batch reaches every routed expert: the weights read approach all of them.
    BatchWork big;
    big.add_decodes(4096, 1000);
    const double all  = (static_cast<double>(m.experts + m.shared_experts) * matrix) * m.dtype_B / 8;
    const double read = op(operator_times(m, big, device(8), c), Op::MoeExperts) / moe_layers * 2e12 * 0.8;
    CHECK(read >= all);  // all the weights, plus the tokens' activations (or compute-bound)
  }
}

TEST_CASE("a dense model has no MoE operators and the iteration is the sum of its operators")
{
  const LlmModel m = preset("llama3.1-8b");
  BatchWork w;
  w.add_prefill(0, 512);
  OperatorCoefficients c;
  c.cpu_per_iteration_s = 1e-3;
  c.cpu_per_sequence_s  = 1e-4;
  const OpTimes t       = operator_times(m, w, device(1), c);
  CHECK(op(t, Op::MoeExperts) == 0);
  CHECK(op(t, Op::MoeRouter) == 0);
  CHECK(op(t, Op::CpuOverhead) == Approx(1.1e-3).epsilon(1e-12));
  double sum = 0;
  for (double s : t)
    sum += s;
  CHECK(total(t) == sum);
  CHECK(total(operator_times(m, BatchWork{}, device(1), c)) == 0);
}

TEST_CASE("decode attention reads each sequence's KV at its fixed time plus bytes; with no context it is not run")
{
  const LlmModel m = preset("llama3.1-8b");
  OperatorCoefficients c;
  BatchWork w;
  w.add_decodes(4, 999);  // 4 sequences, 1,000 tokens of KV each
  // KV per token per layer: 8 KV heads x 128 x 2 (K and V) x 2 bytes; the queries in and out.
  const double bytes = 4 * 1000 * 8 * 128 * 2 * 2.0 + 2 * 4 * 4096 * 2.0;
  const double flop  = 4 * 4096 * 4 * 1000.0;
  const double one   = c.attention_overhead_s +
                     std::max(flop / (1e15 * c.attention_efficiency), bytes / (2e12 * c.bandwidth_efficiency));
  CHECK(op(operator_times(m, w, device(1), c), Op::AttnDecode) == Approx(32 * one).epsilon(1e-12));
  // FastDecode's S-part: the decodes without their context, whose attention runs on the R-workers.
  w.decode_context = 0;
  CHECK(op(operator_times(m, w, device(1), c), Op::AttnDecode) == 0);
}

TEST_CASE("a measured curve reads back its points exactly and is monotone between them")
{
  const PiecewiseLinear curve({{1, 0.1}, {3, 0.30000000000000004}, {10, 0.7}});
  CHECK(curve.at(1) == 0.1);
  CHECK(curve.at(3) == 0.30000000000000004);
  CHECK(curve.at(10) == 0.7);
  double last = curve.at(1);
  for (double x = 1; x <= 10; x += 0.25) {
    CHECK(curve.at(x) >= last);
    last = curve.at(x);
  }
  CHECK(curve.at(20) == Approx(0.7 + 10 * 0.4 / 7));  // extrapolated from the last two
  CHECK(curve.at(-100) == 0);                         // never below 0
}

TEST_CASE("beyond a profile's points a time grows at the chord over the last half of the range")
{
  const PiecewiseLinear curve({{1, 1}, {2, 2}, {3, 3}, {4, 2.9}}, PiecewiseLinear::Beyond::Chord);
  CHECK(curve.at(4) == 2.9);
  CHECK(curve.at(6) == Approx(2.9 + 2 * (2.9 - 2) / 2));  // chord from x = 2 (half of 4) to 4
  CHECK(curve.at(0.5) == 1);                              // below the first point: its value
  const PiecewiseLinear falling({{1, 5}, {2, 4}}, PiecewiseLinear::Beyond::Chord);
  CHECK(falling.at(10) == 4);  // never below the last value
}

TEST_CASE("moe: a ring all-gather over r ranks takes r - 1 steps of latency and the rank's bytes")
{
  const OperatorCoefficients c = coefficients();
  CHECK(all_gather_seconds(1e6, 4, ranks(1, 4, true), c) == Approx(3 * (5e-6 + 1e6 / (100e9 * 0.5))).epsilon(1e-12));
  CHECK(all_gather_seconds(1e6, 1, ranks(1, 1, true), c) == 0);
}

TEST_CASE("moe: the allgather-reducescatter backend moves the hidden state once, an all-to-all k times")
{
  const LlmModel m             = preset("qwen3-30b-a3b");  // 48 MoE layers, d_model 2048, k = 8, 2 bytes
  const OperatorCoefficients c = coefficients();
  BatchWork w;
  w.add_prefill(0, 1000);
  const double hidden = 1000.0 * 2048 * 2, layers = 48;
  // Expert parallelism over tp 4 with the default backend: no dispatch, the tensor-parallel all-reduce.
  const OpTimes ep = operator_times(m, w, ranks(4, 1, true), c);
  CHECK(op(ep, Op::MoeDispatch) == 0);
  CHECK(op(ep, Op::MoeCombine) == 0);
  CHECK(op(ep, Op::MlpAllReduce) == Approx(layers * all_reduce_seconds(hidden, ranks(4, 1, true), c)).epsilon(1e-12));
  // The same experts split across the GPUs cost the same on average.
  const OpTimes split = operator_times(m, w, ranks(4, 1, false), c);
  CHECK(op(split, Op::MoeExperts) == Approx(op(ep, Op::MoeExperts)).epsilon(1e-12));
  // All-to-all: each token to its 8 experts' GPUs and back, (n - 1) steps of 1/n of 8 hidden states.
  const OpTimes a2a    = operator_times(m, w, ranks(4, 1, true, MoeComm::AllToAll), c);
  const double one_a2a = 3 * (5e-6 + 8 * hidden / 4 / (100e9 * 0.5));
  CHECK(op(a2a, Op::MoeDispatch) == Approx(layers * one_a2a).epsilon(1e-12));
  CHECK(op(a2a, Op::MoeCombine) == Approx(layers * one_a2a).epsilon(1e-12));
  CHECK(op(a2a, Op::MlpAllReduce) == 0);
}

TEST_CASE("moe: data-parallel ranks gather each other's hidden states and share the experts' weights")
{
  const LlmModel m       = preset("qwen3-30b-a3b");
  OperatorCoefficients c = coefficients();
  c.kernel_launch_s      = 0;
  BatchWork w;
  w.add_decode(1000);  // one sequence per rank
  const OperatorDevice two = ranks(1, 2, true);
  const OpTimes t          = operator_times(m, w, two, c);
  const double hidden      = 2048.0 * 2;
  CHECK(op(t, Op::MoeDispatch) == Approx(48 * (5e-6 + hidden / (100e9 * 0.5))).epsilon(1e-12));
  CHECK(op(t, Op::MoeCombine) == op(t, Op::MoeDispatch));
  CHECK(op(t, Op::MlpAllReduce) == 0);  // one GPU per rank
  // The experts see both ranks' tokens: 2 tokens reach E (1 - (1 - k/E)^2) experts, half of
  // them on each GPU, whose weights it reads with the tokens' activations (memory-bound).
  const double matrix  = 3.0 * 2048 * 768;
  const double reached = experts_reached(128, 8, 2);
  const double bytes   = (reached / 2 * matrix + 2 * (2.0 * 8 / 2) * 2048) * 2;
  CHECK(op(t, Op::MoeExperts) == Approx(48 * bytes / (2e12 * 0.8)).epsilon(1e-12));
  // One rank alone reads all of its token's 8 experts.
  const OpTimes alone = operator_times(m, w, ranks(1, 1, true), c);
  CHECK(op(alone, Op::MoeExperts) == Approx(48 * (8 * matrix + 2 * 8 * 2048) * 2 / (2e12 * 0.8)).epsilon(1e-12));
}

TEST_CASE("moe: shared experts are each data-parallel rank's own")
{
  LlmModel m             = preset("qwen3-30b-a3b");
  m.shared_experts       = 2;
  OperatorCoefficients c = coefficients();
  c.kernel_launch_s      = 0;
  BatchWork w;
  w.add_decode(1000);  // one sequence per rank, two ranks of one GPU
  // Routed: 2 tokens' picks over both GPUs, half each; shared: this rank's token through both of
  // its own shared experts.
  const double matrix  = 3.0 * 2048 * 768;
  const double experts = experts_reached(128, 8, 2) / 2 + 2, pairs = 8 + 2;
  CHECK(op(operator_times(m, w, ranks(1, 2, true), c), Op::MoeExperts) ==
        Approx(48 * (experts * matrix + 2 * pairs * 2048) * 2 / (2e12 * 0.8)).epsilon(1e-12));
}

TEST_CASE("moe: each GPU's drawn share of the experts adds up to the tokens' picks, and the busiest sets the time")
{
  Rng rng(7);
  for (const int64_t tokens : {1, 16, 4096}) {
    CAPTURE(tokens);
    const std::vector<MoeLoad> loads = draw_expert_parallel_loads(128, 8, tokens, 4, rng);
    REQUIRE(loads.size() == 4);
    double pairs = 0, experts = 0;
    for (const MoeLoad& l : loads) {
      pairs += l.pairs;
      experts += l.experts;
      CHECK(l.experts <= 32);  // GPU g holds experts [32 g, 32 g + 32)
      CHECK(l.experts <= l.pairs);
    }
    CHECK(pairs == 8.0 * static_cast<double>(tokens));
    CHECK(experts <= std::min(128.0, 8.0 * static_cast<double>(tokens)));
    if (tokens == 1)
      CHECK(experts >= 1);  // its 8 picks reach 1 to 8 experts
    if (tokens == 4096)
      CHECK(experts == 128);
  }
  // Over many draws the busiest GPU of 4 carries more than a quarter of 16 tokens' 128 picks.
  double busiest = 0;
  for (int i = 0; i < 2000; ++i) {
    const auto loads = draw_expert_parallel_loads(128, 8, 16, 4, rng);
    busiest += std::max_element(loads.begin(), loads.end(), [](const MoeLoad& a, const MoeLoad& b) {
                 return a.pairs < b.pairs;
               })->pairs;
  }
  CHECK(busiest / 2000 > 32 * 1.05);
}

TEST_CASE("moe: a data-parallel rank holds the layers but its share of the routed experts")
{
  const LlmModel m    = preset("qwen3-30b-a3b");
  const double routed = 128.0 * 48 * 3 * 2048 * 768;  // parameters
  CHECK(m.rank_weight_B(1) == m.weight_B());
  CHECK(m.rank_weight_B(2) == Approx((m.params - routed / 2) * 2).epsilon(1e-12));
  const LlmModel dense = preset("llama3.1-8b");
  CHECK(dense.rank_weight_B(4) == dense.weight_B());
}
