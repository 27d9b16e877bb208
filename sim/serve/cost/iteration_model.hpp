// Contract of an iteration-time model (registry "iteration_model", chosen with `impl:` under a
// serve phase's `iteration:`): how long one forward pass of a serving instance takes for the
// batch it runs. Pure logic; the constructor reads and checks every key (and may read a file).
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/serve/cost/llm_model.hpp"

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

class GpuLoad;

// What one iteration computes, summed over the batch. A prefill part of n new tokens after c
// tokens of context attends to n*c + n*(n+1)/2 token pairs (causal); a decode of a request with
// c tokens of context attends to c + 1.
struct BatchWork {
  int64_t prefills         = 0;  // sequences prefilling
  int64_t prefill_tokens   = 0;  // new prompt tokens
  double prefill_pairs     = 0;  // attention token pairs of the prefill parts
  double prefill_kv_tokens = 0;  // context + new tokens of the prefill parts (KV read and written)
  double prefill_squares   = 0;  // sum over the prefill parts of their new tokens squared
  int64_t decodes          = 0;  // requests generating one token each
  double decode_context    = 0;  // context tokens of the decodes (KV read)
  // KV blocks moved between HBM and CPU memory by preemption by swap (out and in). Timed by the
  // instance over the host's PCIe, not by the iteration model.
  int64_t swapped_blocks = 0;
  // The iteration starts as the instance's previous one ends: an engine that schedules
  // asynchronously did this one's CPU work during that one's GPU work.
  bool follows_step = false;

  void add_prefill(int64_t context, int64_t n) { add_prefills(1, context, n); }
  void add_decode(int64_t context) { add_decodes(1, context); }
  // `count` sequences alike.
  void add_prefills(int64_t count, int64_t context, int64_t n)
  {
    const double k = static_cast<double>(count), c = static_cast<double>(context), t = static_cast<double>(n);
    prefills += count;
    prefill_tokens += count * n;
    prefill_pairs += k * (t * c + t * (t + 1) / 2);
    prefill_kv_tokens += k * (c + t);
    prefill_squares += k * t * t;
  }
  void add_decodes(int64_t count, int64_t context)
  {
    decodes += count;
    decode_context += static_cast<double>(count) * static_cast<double>(context + 1);
  }
  bool empty() const { return prefill_tokens == 0 && decodes == 0; }
};

// What iterations asked of their GPUs, in seconds: the seconds at full load that draw the same
// power (GpuLoad::load_at), and the seconds their flop and their HBM bytes take at the GPUs' peaks.
struct GpuUse {
  double load_s = 0, compute_s = 0, hbm_s = 0;
  GpuUse& operator+=(const GpuUse& o)
  {
    load_s += o.load_s;
    compute_s += o.compute_s;
    hbm_s += o.hbm_s;
    return *this;
  }
};

class IterationModel {
 public:
  struct Context {
    const LlmModel& model;
    const GpuSpec& gpu;           // one pipeline stage's GPUs (count: the tensor-parallel degree)
    const std::string& group;     // its group's name, for messages
    int64_t pipeline_stages = 1;  // an iteration passes through this many stages of `gpu`
    uint64_t seed           = 0;  // the scenario's, and the name of this model's random stream
    std::string stream      = "iteration";
    int64_t data_parallel   = 1;  // ranks like it whose MoE layers share their experts (vllm's dp)
    // The batches' limits (batching.max_batch_size, max_batch_tokens); 0: not known.
    int64_t max_batch_size = 0, max_batch_tokens = 0;
  };
  static constexpr const char* kInterfaceName = "iteration_model";
  static constexpr const char* kHeader        = "sim/serve/cost/iteration_model.hpp";
  static constexpr const char* kSelector      = "impl";

  virtual ~IterationModel()                           = default;
  virtual double seconds(const BatchWork& work) const = 0;
  // The share of seconds(work) the GPUs wait on HBM bandwidth rather than compute, for the
  // phase's bottleneck attribution (sim/sg/wait_ledger.hpp); NaN when the model does not say.
  virtual double memory_bound_share(const BatchWork&) const { return NAN; }

  // The operators an iteration's time is made of, for <phase>_operators.csv; none when the model
  // does not break its time down.
  virtual const std::vector<std::string>& operator_names() const
  {
    static const std::vector<std::string> none;
    return none;
  }
  // Adds each operator's seconds for `work` to `seconds` (as long as operator_names()); they sum
  // to seconds(work).
  virtual void add_operator_seconds(const BatchWork&, std::vector<double>&) const {}

  // What a user must be told about where this model's figures come from (figures assumed for
  // the GPU rather than measured on it), said once per run in the console and in report.md;
  // empty when there is nothing to say.
  virtual std::string calibration_note() const { return {}; }

  // What `span_s` of an iteration of `work` that takes `iteration_s` asks of its GPUs
  // (GpuLoad); each share 1 until set_gpu_load.
  GpuUse gpu_use(const BatchWork& work, double span_s, double iteration_s) const;
  void set_gpu_load(std::shared_ptr<const GpuLoad> load) { load_ = std::move(load); }

 private:
  std::shared_ptr<const GpuLoad> load_;
};

}  // namespace llsim
