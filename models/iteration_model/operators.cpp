// Iteration model `operators` (docs/phases/serve.md, "The operators model"): an iteration is the
// sum of its operators on one GPU of the instance, layer by layer: the QKV, output and MLP
// projections as GEMMs of the iteration's tokens by this GPU's tensor-parallel share of the
// weights, attention over the KV each sequence reads, two all-reduces per layer over the host's
// GPU link when it has more than one GPU, the experts the tokens reach (over the GPUs of the
// vllm system's data-parallel ranks, with the gathers or all-to-alls that carry the tokens),
// norms, residual adds, the embedding, the LM head for each sequence's last token, and the CPU
// work of the iteration and of each of its sequences. Each operator is timed by its own roofline
// (sim/serve/cost/operator_costs.hpp) or, with `profile: DIR`, read from Vidur's measured
// profiles (sim/serve/cost/vidur_profile.hpp). <phase>_operators.csv gives where the time went,
// per operator. By default an iteration runs as vLLM V1's: the CPU work of one that follows
// another overlaps that one's GPU work (async scheduling: the step takes max(GPU, CPU -
// cpu_serial) + cpu_serial), and one within the largest CUDA graph runs its token-wise operators
// at the graph's padded size.
// Example (tests/llsim/test_operators.py runs it):
//   llsim run tests/inputs/serve_operators.yaml
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/serve/cost/iteration_model.hpp"
#include "sim/serve/cost/operator_costs.hpp"
#include "sim/serve/cost/vidur_profile.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>

namespace llsim {

namespace {

// The profile's key, then the GPU kernel coefficients' (sim/platform/kernel_coefficients.hpp),
// then `rest`.
ParamTable with_kernel_coefficients(const ParamTable& rest)
{
  ParamTable t = {ParamSpec::text_list("profile", "directory (or list of them) of Vidur profile CSVs: mlp.csv, "
                                                  "attention.csv, all_reduce.csv, send_recv.csv, cpu_overheads.csv; "
                                                  "measured times replace the rooflines of the operators they cover")
                      .may_be_absent()};
  for (const KernelCoefficientSpec& s : kernel_coefficient_specs())
    t.push_back(kernel_coefficient_param(s, "default: the GPU's fitted figure (a100-80gb-sxm, h100-sxm presets), "
                                            "else " +
                                                format_quantity(s.assumed, s.dimension) + " (assumption)"));
  t.insert(t.end(), rest.begin(), rest.end());
  return t;
}

const ParamTable kOperatorsParams = with_kernel_coefficients({
    ParamSpec::quantity("attention_efficiency", Dimension::Number,
                        "share of peak flops the attention kernels reach (fitted: Vidur's FlashAttention times of "
                        "Llama-2-70B at TP2 on an A100, prefill and decode)")
        .defaults("0.2707")
        .positive()
        .at_most(1),
    ParamSpec::quantity("attention_overhead", Dimension::Duration,
                        "fixed time of an attention kernel, in place of kernel_launch (fitted, as "
                        "attention_efficiency)")
        .defaults("15.21us")
        .at_least(0),
    ParamSpec::quantity("link_latency", Dimension::Duration,
                        "time of one step of a ring all-reduce or all-to-all between the host's GPUs (fitted: "
                        "Vidur's NCCL all-reduce times on a DGX-A100, 2 to 8 GPUs)")
        .defaults("3.375us")
        .at_least(0),
    ParamSpec::quantity("link_efficiency", Dimension::Number,
                        "share of the GPU link's bandwidth an all-reduce or all-to-all reaches (fitted, as "
                        "link_latency)")
        .defaults("0.4763")
        .positive()
        .at_most(1),
    ParamSpec::quantity("cpu_per_iteration", Dimension::Duration,
                        "CPU time of an iteration: scheduling, input preparation (fitted: Vidur's vLLM CPU profile, "
                        "A100, batch 8-128)")
        .defaults("0.8679ms")
        .at_least(0),
    ParamSpec::quantity(
        "cpu_per_sequence", Dimension::Duration,
        "CPU time per sequence of the batch: sampling, output processing (fitted, as cpu_per_iteration)")
        .defaults("0.03621ms")
        .at_least(0),
    ParamSpec::one_of("scheduling", {"auto", "serial", "async"},
                      "serial: an iteration's CPU work (cpu_per_iteration, cpu_per_sequence) runs before its GPU "
                      "work, as vLLM V0 ran it and V1 without --async-scheduling; async: it runs during the "
                      "previous iteration's GPU work, so an iteration that follows another takes the longer of "
                      "the two plus cpu_serial (vLLM V1's --async-scheduling, on by default in its recent "
                      "releases); auto: async, or serial with pipeline stages (where vLLM refuses async)")
        .defaults("auto"),
    ParamSpec::quantity("cpu_serial", Dimension::Duration,
                        "scheduling async: the CPU time of every iteration that cannot overlap the GPU (taking the "
                        "previous step's sampled tokens); an assumption, 0 by default")
        .defaults("0s")
        .at_least(0),
    ParamSpec::flag("cuda_graphs",
                    "an iteration of at most cuda_graph_max_tokens tokens replays a captured CUDA graph, its "
                    "token count padded up to the next captured size (1, 2, 4, every multiple of 8 below 256, "
                    "then of 16), as vLLM V1 runs it; false: each operator at the batch's own token count, as the "
                    "kernels were timed for the fit (an eager engine's CPU cost of launching each kernel, which "
                    "graphs save, is not modelled)")
        .defaults("true"),
    ParamSpec::integer("cuda_graph_max_tokens",
                       "largest captured CUDA graph, in tokens (vLLM's --max-cudagraph-capture-size; absent: "
                       "vLLM's default, 2 x batching.max_batch_size up to 512, at most max_batch_tokens)")
        .may_be_absent()
        .at_least(1),
    ParamSpec::one_of("experts_reached", {"mean", "drawn"},
                      "routed experts a MoE layer's tokens reach: mean (E (1 - (1 - k/E)^T) on every "
                      "layer) or drawn (each layer's own draw, from the scenario's seed and the "
                      "batch)")
        .defaults("mean"),
    ParamSpec::flag("expert_parallel",
                    "experts placed whole across the MoE layer's GPUs (the instance's, times the vllm system's dp "
                    "ranks) instead of each expert split across them: the same work on average, but a GPU's "
                    "share follows the experts its tokens pick (experts_reached: drawn), and all_to_all can carry it")
        .defaults("false"),
    ParamSpec::one_of("moe_comm", {"allgather_reducescatter", "all_to_all"},
                      "how a MoE layer's tokens reach their experts' GPUs and come back, as vLLM's all2all "
                      "backends: allgather_reducescatter (vLLM's default: the data-parallel ranks' hidden states "
                      "gathered once and their sums scattered back, then the tensor-parallel all-reduce) or "
                      "all_to_all (expert_parallel only: each token sent to its k experts' GPUs and back, as "
                      "pplx and DeepEP)")
        .defaults("allgather_reducescatter"),
});

class Operators : public IterationModel {
 public:
  Operators(const Params& p, const Context& c)
      : model_(c.model)
  {
    check_model(p, c.model);
    if (c.gpu.flops == 0 || c.gpu.hbm_Bps == 0)
      p.ref().fail("the operators model needs the GPUs' flops and hbm_bandwidth (give both, or a preset, in "
                   "platform.groups." +
                   c.group + ".gpu)");
    if (p.flag("expert_parallel") && !c.model.moe())
      p.fail("expert_parallel", "needs a mixture of experts (the model has no experts)");
    const std::string reached = p.text("experts_reached");
    if (reached == "drawn" && !c.model.moe())
      p.fail("experts_reached", "drawn needs a mixture of experts (the model has no experts)");
    if (reached == "drawn")
      draw_key_ = Rng::stream_key(c.seed, c.stream + ".experts");
    device_    = operator_device(c.gpu, c.model, c.gpu.count, p.flag("expert_parallel"), c.pipeline_stages);
    device_.dp = c.data_parallel;
    if (device_.expert_parallel && device_.dp * device_.tp > c.model.experts)
      p.fail("expert_parallel", std::to_string(device_.dp * device_.tp) + " GPUs cannot each hold whole experts of " +
                                    std::to_string(c.model.experts));
    if (p.text("moe_comm") == "all_to_all") {
      if (!c.model.moe())
        p.fail("moe_comm", "all_to_all needs a mixture of experts (the model has no experts)");
      if (!device_.expert_parallel)
        p.fail("moe_comm", "all_to_all sends tokens to whole experts: it needs expert_parallel: true");
      device_.moe_comm = MoeComm::AllToAll;
    }
    Unmeasured unmeasured = unmeasured_keys(p, c);  // before the defaults are read
    // The scenario's figure, else the GPU's fitted one, else the model's assumption.
    for (const KernelCoefficientSpec& s : kernel_coefficient_specs())
      coefficients_.*kernel_member(s.which) = kernel_coefficient(s, &p, c.gpu.kernel);
    coefficients_.attention_efficiency = p.quantity("attention_efficiency");
    coefficients_.attention_overhead_s = p.quantity("attention_overhead");
    coefficients_.link_latency_s       = p.quantity("link_latency");
    coefficients_.link_efficiency      = p.quantity("link_efficiency");
    coefficients_.cpu_per_iteration_s  = p.quantity("cpu_per_iteration");
    coefficients_.cpu_per_sequence_s   = p.quantity("cpu_per_sequence");
    const std::string scheduling       = p.text("scheduling");
    async_                             = scheduling == "async" || (scheduling == "auto" && c.pipeline_stages == 1);
    cpu_serial_s_                      = p.quantity("cpu_serial");
    graph_max_tokens_                  = p.flag("cuda_graphs") ? largest_graph(p, c) : 0;
    if (!p.flag("cuda_graphs") && p.has("cuda_graph_max_tokens"))
      p.fail("cuda_graph_max_tokens", "applies to cuda_graphs: true (without graphs nothing is captured)");
    if (async_ && c.pipeline_stages > 1)
      p.fail("scheduling", "async with pipeline stages is not modelled (vLLM refused --async-scheduling with "
                           "pipeline parallelism until 2026)");
    if (!async_ && cpu_serial_s_ > 0)  // 0, its default, is what resolved.yaml writes
      p.fail("cpu_serial", "applies to asynchronous scheduling (serial scheduling, or auto with pipeline stages, "
                           "runs all the CPU work in series)");
    if (p.has("profile"))
      profile_ = read_vidur_profile(p.paths("profile"), c.model, c.gpu.count, c.pipeline_stages);
    note_ = uncalibrated_note(c, unmeasured);
    if (device_.tp > 1 && device_.link_Bps == 0 && !(profile_ && !profile_->all_reduce.empty()))
      p.ref().fail("the operators model needs the link between the " + std::to_string(device_.tp) +
                   " GPUs of a host (give interconnect, or a preset, in platform.groups." + c.group +
                   ".gpu, or an all_reduce.csv in the profile)");
    if (device_.dp > 1 && device_.link_Bps == 0)
      p.ref().fail("the operators model needs the link between the " + std::to_string(device_.dp) +
                   " data-parallel ranks of a host (give interconnect, or a preset, in platform.groups." + c.group +
                   ".gpu)");
    if (device_.pp > 1 && device_.link_Bps == 0 && !(profile_ && !profile_->send_recv.empty()))
      p.ref().fail("the operators model needs the link between the " + std::to_string(device_.pp) +
                   " pipeline stages of a host (give interconnect, or a preset, in platform.groups." + c.group +
                   ".gpu, or a send_recv.csv in the profile)");
  }

  double seconds(const BatchWork& w) const override { return total(times(w)); }

  std::string calibration_note() const override { return note_; }

  const std::vector<std::string>& operator_names() const override
  {
    static const std::vector<std::string> names = [] {
      std::vector<std::string> n;
      for (size_t i = 0; i < kOpCount; ++i)
        n.emplace_back(op_name(static_cast<Op>(i)));
      return n;
    }();
    return names;
  }

  void add_operator_seconds(const BatchWork& w, std::vector<double>& seconds) const override
  {
    const OpTimes t = times(w);
    for (size_t i = 0; i < kOpCount; ++i)
      seconds[i] += t[i];
  }

 private:
  static void check_model(const Params& p, const LlmModel& m)
  {
    if (!m.has_shape())
      p.ref().fail("the operators model needs the model's shape: layers, d_model, kv_heads, head_dim (or a preset)");
    if (m.vocab <= 0)
      p.ref().fail("the operators model needs the model's vocab (for the LM head)");
    if (m.ffn <= 0 && (!m.moe() || m.dense_layers > 0))
      p.ref().fail("the operators model needs the model's ffn (the intermediate size of its dense MLP)");
  }

  // The keys taken from neither the scenario nor a measurement on this GPU: the kernel
  // coefficients assumed where the GPU has no fitted figure, and the attention, CPU and link
  // figures fitted on Vidur's A100 measurements, carried over to any other GPU.
  struct Unmeasured {
    std::vector<std::string> assumed, carried;
  };
  static Unmeasured unmeasured_keys(const Params& p, const Context& c)
  {
    // Written in the scenario or by a --set: a default llsim filled in (when a model of another
    // group read this section first) has no place in any text.
    const auto written = [&p](const char* key) { return p.has(key) && !p.ref().child(key).node().Mark().is_null(); };
    Unmeasured u;
    for (const KernelCoefficientSpec& s : kernel_coefficient_specs())
      if (!written(s.key) && !c.gpu.kernel[static_cast<size_t>(s.which)])
        u.assumed.emplace_back(s.key);
    if (c.gpu.preset == "a100-80gb-sxm")
      return u;
    std::vector<const char*> carried = {"attention_efficiency", "attention_overhead", "cpu_per_iteration",
                                        "cpu_per_sequence"};
    if (c.gpu.count > 1)
      carried.insert(carried.end(), {"link_latency", "link_efficiency"});
    for (const char* key : carried)
      if (!written(key))
        u.carried.emplace_back(key);
    return u;
  }

  // The note of a GPU timed on figures not measured on it, less what the profile measured, with the
  // commands that would measure them (the profiler measures the catalogue's dense models:
  // analysis/profile/catalogue.py).
  std::string uncalibrated_note(const Context& c, Unmeasured u) const
  {
    const auto measured = [&u](std::initializer_list<const char*> keys) {
      for (const char* key : keys)
        u.carried.erase(std::remove(u.carried.begin(), u.carried.end(), key), u.carried.end());
    };
    if (profile_ && !profile_->op[static_cast<size_t>(Op::AttnPreProj)].empty() &&
        !profile_->op[static_cast<size_t>(Op::AttnPostProj)].empty())
      u.assumed.clear();  // the GEMMs the kernel coefficients would time were measured
    if (profile_ && (profile_->attention.has_prefill() || profile_->attention.has_decode()))
      measured({"attention_efficiency", "attention_overhead"});
    if (profile_ && !profile_->cpu.empty())
      measured({"cpu_per_iteration", "cpu_per_sequence"});
    if (profile_ && !profile_->all_reduce.empty())
      measured({"link_latency", "link_efficiency"});
    if (u.assumed.empty() && u.carried.empty())
      return "";
    // Named by its preset alone, so that groups of one GPU type give one note.
    const std::string gpu = c.gpu.preset.empty() ? "the GPU of group '" + c.group + "'" : "GPU '" + c.gpu.preset + "'";
    std::vector<std::string> parts;
    if (!u.assumed.empty())
      parts.push_back("assumed kernel coefficients (" + join(u.assumed, ", ") + ")");
    if (!u.carried.empty())
      parts.push_back("figures fitted on Vidur's A100 measurements (" + join(u.carried, ", ") + ")");
    const std::string note = "the operators model times " + gpu + " with " + join(parts, " and ") +
                             ": none of them was measured on this GPU, so its iteration times are not validated. ";
    if (c.model.name.empty() || c.model.moe() || c.model.attention() == Attention::Mla)
      return note + "The profiler (analysis/profile/profile_gpu.py) measures the catalogue's dense models only: "
                    "profile one of them on the GPU and fit the keys with `llsim calibrate --profile`, or give the "
                    "iteration a profile in Vidur's layout (`profile: DIR`)";
    const std::string tp       = std::to_string(c.gpu.count);
    const std::string gpu_keys = c.gpu.preset.empty() ? "'<the GPU's keys>, count: " + tp + "'"
                                                      : "'preset: " + c.gpu.preset + ", count: " + tp + "'";
    return note + "Measure them on the GPU with `python3 analysis/profile/profile_gpu.py --model " + c.model.name +
           " --tp " + tp + " --out DIR`, then fit them with `llsim calibrate --model 'preset: " + c.model.name +
           "' --gpu " + gpu_keys +
           " --profile DIR/mlp.csv` (and `--attention DIR/attention.csv`), or give the "
           "iteration `profile: DIR`";
  }

  OpTimes times(const BatchWork& w) const
  {
    const double run_tokens = graph_tokens(w.prefill_tokens + w.decodes);
    std::vector<std::vector<MoeLoad>> loads;
    if (draw_key_)
      loads = draw_loads(w, static_cast<int64_t>(run_tokens));  // padding tokens counted as the mean counts them
    OpTimes t = operator_times(model_, w, device_, coefficients_, draw_key_ ? &loads : nullptr, run_tokens);
    if (profile_ && !w.empty())
      apply_profile(w, run_tokens, t);
    if (async_ && w.follows_step)
      overlap_cpu(t);
    return t;
  }

  // The largest captured graph: the key, else vLLM's default (vllm/config/compilation.py).
  static int64_t largest_graph(const Params& p, const Context& c)
  {
    if (p.has("cuda_graph_max_tokens"))
      return p.integer("cuda_graph_max_tokens");
    int64_t largest = c.max_batch_size > 0 ? std::min<int64_t>(2 * c.max_batch_size, 512) : 512;
    return c.max_batch_tokens > 0 ? std::min(largest, c.max_batch_tokens) : largest;
  }

  // The tokens the token-wise operators run on: under a captured CUDA graph, the batch's padded up
  // to the next captured size, vLLM's 1, 2, 4, multiples of 8 below 256 and of 16 from 256 (vLLM
  // V1 pads any batch the graphs cover, a mixed one included: its attention runs outside them, on
  // the batch's own sequences).
  double graph_tokens(int64_t tokens) const
  {
    const int64_t step     = tokens > 256 ? 16 : 8;
    const int64_t captured = tokens > 4 ? (tokens + step - 1) / step * step : tokens == 3 ? 4 : tokens;
    return static_cast<double>(captured <= graph_max_tokens_ ? captured : tokens);
  }

  // Asynchronous scheduling: the CPU work of an iteration that follows another ran during that
  // one's GPU work, all but cpu_serial of it; what is left shows as the CPU operator, so that the
  // operators still add up to the step: max(GPU, CPU - serial) + serial.
  void overlap_cpu(OpTimes& t) const
  {
    double& cpu        = t[static_cast<size_t>(Op::CpuOverhead)];
    const double gpu   = total(t) - cpu;
    const double fixed = std::min(cpu, cpu_serial_s_);
    cpu                = fixed + std::max(0.0, cpu - fixed - gpu);
  }

  // Measured times replace the rooflines of the operators the profile has.
  void apply_profile(const BatchWork& w, double tokens, OpTimes& t) const
  {
    const double layers       = static_cast<double>(model_.layers);
    const double dense_layers = static_cast<double>(model_.moe() ? model_.dense_layers : model_.layers);
    for (size_t i = 0; i < kOpCount; ++i)
      if (!profile_->op[i].empty())
        t[i] = profile_calls(static_cast<Op>(i), model_) * profile_->op[i].at(tokens);
    if (!profile_->all_reduce.empty()) {
      const double one = profile_->all_reduce.at(tokens * static_cast<double>(model_.d_model) * model_.dtype_B);
      t[static_cast<size_t>(Op::AttnAllReduce)] = layers * one;
      t[static_cast<size_t>(Op::MlpAllReduce)]  = (device_.moe_comm == MoeComm::AllToAll ? dense_layers : layers) * one;
    }
    if (!profile_->send_recv.empty())
      t[static_cast<size_t>(Op::PipelineSendRecv)] =
          static_cast<double>(device_.pp - 1) *
          profile_->send_recv.at(tokens * static_cast<double>(model_.d_model) * model_.dtype_B);
    if (!profile_->cpu.empty())
      t[static_cast<size_t>(Op::CpuOverhead)] = profile_->cpu.at(static_cast<double>(w.prefills + w.decodes));
    if (profile_->attention.has_prefill())
      t[static_cast<size_t>(Op::AttnPrefill)] = layers * profile_->attention.prefill_seconds(w);
    if (profile_->attention.has_decode() && w.decode_context > 0)
      t[static_cast<size_t>(Op::AttnDecode)] = layers * profile_->attention.decode_seconds(w);
  }

  // Each MoE layer's draw, from a stream keyed by the batch: the same batch draws the same
  // experts, so an iteration's time and its breakdown agree, in any order of calls. The experts
  // see `tokens` of each data-parallel rank.
  std::vector<std::vector<MoeLoad>> draw_loads(const BatchWork& w, int64_t tokens) const
  {
    uint64_t h = 0;
    for (uint64_t v :
         {static_cast<uint64_t>(w.prefills), static_cast<uint64_t>(w.prefill_tokens), static_cast<uint64_t>(w.decodes),
          static_cast<uint64_t>(w.decode_context), static_cast<uint64_t>(w.prefill_pairs)})
      h = (h ^ v) * 0x100000001b3ULL;  // FNV-1a's multiplier over whole words
    Rng rng = Rng::keyed(*draw_key_, h);
    std::vector<std::vector<MoeLoad>> loads;
    const int64_t all = tokens * device_.dp, gpus = device_.dp * device_.tp;
    for (int64_t l = model_.dense_layers; l < model_.layers; ++l)
      loads.push_back(device_.expert_parallel
                          ? draw_expert_parallel_loads(model_.experts, model_.experts_per_token, all, gpus, rng)
                          : std::vector<MoeLoad>{even_moe_load(
                                model_, static_cast<double>(all),
                                draw_experts_reached(model_.experts, model_.experts_per_token, all, rng), device_)});
    return loads;
  }

  LlmModel model_;
  std::string note_;                  // calibration_note()
  std::optional<uint64_t> draw_key_;  // experts_reached: drawn
  OperatorDevice device_;
  OperatorCoefficients coefficients_;
  std::optional<VidurProfile> profile_;
  bool async_               = false;  // scheduling: async (or auto, without pipeline stages)
  double cpu_serial_s_      = 0;
  int64_t graph_max_tokens_ = 0;  // cuda_graph_max_tokens; 0: cuda_graphs false
};

}  // namespace

LLSIM_REGISTER(IterationModel, "operators", Operators,
               "sum of the iteration's operators (GEMMs, attention, all-reduces, MoE, CPU), each from its roofline "
               "or a measured profile",
               kOperatorsParams);

}  // namespace llsim
