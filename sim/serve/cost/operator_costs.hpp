// The operators of one forward pass of a decoder-only transformer on one GPU of a
// tensor-parallel instance, each timed from its own roofline (docs/phases/serve.md, "The
// operators model"). Pure arithmetic; the `operators` iteration model replaces these times
// with measured ones where it has a profile.
//
// A GEMM of M tokens by a K x N weight share takes
//   max(2 M K N / (peak x gemm_efficiency(M)), (K N + M K + M N) x dtype_bytes / (hbm x bandwidth_efficiency))
//   gemm_efficiency(M) = gemm_efficiency x M / (M + gemm_half_tokens)
// so a GEMM of few tokens is bound by reading its weights and a large one by compute at an
// efficiency that grows with M. A memory-bound kernel (norms, RoPE, activations, residual adds,
// the embedding gather) moves its bytes at hbm x bandwidth_efficiency. Every kernel also takes
// kernel_launch. An attention kernel (FlashAttention's prefill, or a decode over paged KV) takes
//   attention_overhead + max(flop / (peak x attention_efficiency), bytes / (hbm x bandwidth_efficiency))
// for the 4 x query width flop of each attended token pair and the KV and queries it moves. A tensor-parallel
// all-reduce of B bytes over t GPUs is a ring's 2 (t-1) steps, each of link_latency and B/t
// bytes over the link at link_efficiency of its bandwidth:
// 2 (t-1) (link_latency + B / (t x link bandwidth x link_efficiency)) (the alpha-beta model
// of Thakur, Rabenseifner and Gropp, 2005); an all-to-all is (t-1) such steps, an all-gather or
// reduce-scatter over r ranks r - 1 steps of a rank's bytes, and a pipeline stage's send of its
// activations to the next is one. A MoE layer spans the GPUs of dp data-parallel ranks (vLLM's
// data parallelism with expert parallelism): see moe_mlp in operator_costs.cpp.
#pragma once
#include "sim/core/random.hpp"
#include "sim/platform/gpu_spec.hpp"
#include "sim/serve/cost/iteration_model.hpp"

#include <array>
#include <cstddef>
#include <vector>

namespace llsim {

// The operators, in the order an iteration runs them (names as Vidur's profiles spell them where
// they have one). "Per layer" operators are summed over the layers that have them.
enum class Op : size_t {
  Embedding,
  InputLayernorm,
  AttnPreProj,
  AttnRope,
  AttnPrefill,
  AttnDecode,
  AttnPostProj,
  AttnAllReduce,
  PostAttentionLayernorm,
  MlpUpProj,
  MlpAct,
  MlpDownProj,
  MoeRouter,
  MoeDispatch,
  MoeExperts,
  MoeCombine,
  MlpAllReduce,
  Add,
  PipelineSendRecv,
  FinalLayernorm,
  LmHead,
  CpuOverhead,
  Count
};
inline constexpr size_t kOpCount = static_cast<size_t>(Op::Count);
const char* op_name(Op op);

using OpTimes = std::array<double, kOpCount>;  // seconds per operator, summed over layers
double total(const OpTimes& t);

// The free coefficients of the operators model: what `llsim calibrate` fits. The defaults are
// the model's (models/iteration_model/operators.cpp says which are fitted and which assumed); a
// GPU of the catalogue may carry its own fitted GEMM, bandwidth and kernel-launch figures, whose
// keys and assumed values are the table of sim/platform/kernel_coefficients.hpp.
struct OperatorCoefficients {
  double gemm_efficiency      = kernel_coefficient_spec(KernelCoefficient::GemmEfficiency).assumed;
  double gemm_half_tokens     = kernel_coefficient_spec(KernelCoefficient::GemmHalfTokens).assumed;
  double bandwidth_efficiency = kernel_coefficient_spec(KernelCoefficient::BandwidthEfficiency).assumed;
  double kernel_launch_s      = kernel_coefficient_spec(KernelCoefficient::KernelLaunch).assumed;
  double attention_efficiency = 0.2707;    // share of peak the attention kernels' flops reach
  double attention_overhead_s = 15.21e-6;  // fixed time of an attention kernel (instead of kernel_launch)
  double link_latency_s       = 3.375e-6;
  double link_efficiency      = 0.4763;  // share of the GPU link's bandwidth a collective reaches
  double cpu_per_iteration_s  = 0.8679e-3;
  double cpu_per_sequence_s   = 0.03621e-3;
};
// The member of OperatorCoefficients that holds kernel coefficient `k`.
double OperatorCoefficients::*kernel_member(KernelCoefficient k);

// How a MoE layer's tokens reach the GPUs of its experts and come back (vLLM's all2all backends):
// an all-gather of the data-parallel ranks' hidden states before and a reduce-scatter after (the
// default, "allgather_reducescatter"), or, under expert parallelism, an all-to-all that sends each
// token to the GPUs of its k experts and back (pplx, DeepEP).
enum class MoeComm { AllgatherReduceScatter, AllToAll };

// One GPU of the instance and how it talks to the others.
struct OperatorDevice {
  double peak_flops    = 0;  // of one GPU at the model's dtype
  double hbm_Bps       = 0;
  double link_Bps      = 0;      // GPU-to-GPU, each direction; 0 when there is one GPU
  int64_t tp           = 1;      // tensor-parallel degree: a pipeline stage's GPUs
  int64_t pp           = 1;      // pipeline stages an iteration passes through
  bool expert_parallel = false;  // experts placed whole across the GPUs, instead of each split across them
  // Data-parallel ranks (instances of tp GPUs each) whose MoE layers share their experts: the
  // experts span dp x tp GPUs and see every rank's tokens (vLLM's --data-parallel-size).
  int64_t dp       = 1;
  MoeComm moe_comm = MoeComm::AllgatherReduceScatter;
};

// The routed experts' work on one GPU in one MoE layer, in whole experts: the token-expert pairs
// it computes and the distinct experts whose weights it reads.
struct MoeLoad {
  double pairs   = 0;
  double experts = 0;
};

// One of the host's GPUs serving `model` on `tp` of them per stage, over `pp` stages. FP8 weights
// (dtype_bytes 1) run at the FP8 peak where the GPU has one.
OperatorDevice operator_device(const GpuSpec& gpu, const LlmModel& model, int64_t tp, bool expert_parallel,
                               int64_t pp = 1);

// Distinct routed experts that T tokens reach on average, each reaching k of E at random:
// E (1 - (1 - k/E)^T).
double experts_reached(int64_t experts, int64_t per_token, double tokens);
// One draw of that number: each token's k distinct experts drawn in turn, stopping once all E
// are reached.
double draw_experts_reached(int64_t experts, int64_t per_token, int64_t tokens, Rng& rng);
// One draw of each GPU's load under expert parallelism: the tokens' T x k picks of experts drawn
// at random (a multinomial over the E experts: a token's k picks are taken as independent, where
// the router's are distinct, so a token may pick one expert twice and the spread widens by a
// factor (1 - 1/E) / (1 - k/E) in variance: 6% for 8 of 128, 17% for Mixtral's 2 of 8), GPU g
// holding experts [g E / gpus, (g + 1) E / gpus).
std::vector<MoeLoad> draw_expert_parallel_loads(int64_t experts, int64_t per_token, int64_t tokens, int64_t gpus,
                                                Rng& rng);
// The load of every GPU in a layer whose tokens reach `reached` distinct experts on average,
// spread evenly over the MoE layer's dp x tp GPUs.
MoeLoad even_moe_load(const LlmModel& m, double tokens, double reached, const OperatorDevice& d);

// Seconds of each operator for the batch as it passes through every stage: each stage's layers
// on one of its GPUs (the stage's GPUs do the same), and the activations sent from each stage to
// the next. Summed over the stages, as one batch takes them in turn.
// `loads`: each MoE layer's GPU loads (drawn; the slowest GPU sets the layer's time); null: the
// mean on every layer.
// `run_tokens`: the tokens the token-wise operators (all but attention, the LM head and the CPU)
// run on, where they differ from the batch's (a CUDA graph's padded size); 0: the batch's.
OpTimes operator_times(const LlmModel& m, const BatchWork& w, const OperatorDevice& d, const OperatorCoefficients& c,
                       const std::vector<std::vector<MoeLoad>>* loads = nullptr, double run_tokens = 0);

// The pieces, for calibration and tests.
double gemm_seconds(double m, double k, double n, double dtype_B, const OperatorDevice& d,
                    const OperatorCoefficients& c);
double all_reduce_seconds(double bytes, const OperatorDevice& d, const OperatorCoefficients& c);
// A ring all-gather (or reduce-scatter) over `ranks` GPUs, each contributing `bytes`:
// (ranks - 1) (link_latency + bytes / (link x link_efficiency)).
double all_gather_seconds(double bytes, int64_t ranks, const OperatorDevice& d, const OperatorCoefficients& c);
// The pp - 1 sends of B bytes between stages, each one step: link_latency + B / (link x link_efficiency).
double pipeline_seconds(double bytes, const OperatorDevice& d, const OperatorCoefficients& c);

}  // namespace llsim
