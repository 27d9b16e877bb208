// Phase kind `serve`: LLM inference on a serving system, replaying a request trace or a
// synthetic load, judged against an SLO (sim/serve/).
//
//   - name: chat
//     kind: serve
//     model: {preset: llama3-70b}             or {params, layers, d_model, kv_heads, head_dim}
//     system: {impl: vllm, instances: gpu}    vllm | mooncake | fastdecode
//     iteration: {impl: roofline}             how long an iteration takes: roofline | table
//     batching: {scheduler: v1, max_batch_tokens: 8192, max_batch_size: 256, prefill_chunk: 512,
//                block_size: 16, gpu_memory_utilization: 0.9}   scheduler: models/batch_scheduler/
//     workload: {trace: traces/mooncake_conversation_trace.jsonl, format: mooncake}
//     slo: {ttft: 30s, tbt: 100ms}
//     weights: {path: models/llama3-70b, from: pfs}   read before serving (sim/serve/weights/weight_source.hpp)
//     autoscale: {impl: target, metric: running, target: 32}   instances allocated over time
//                                             (sim/serve/scaling/autoscaler.hpp)
//     sample_period: 1s                       rows of <phase>_instances.csv
//     api_server: {per_request: 2ms, per_input_token: 1us}   front end before the engine, in TTFT
//                                             (sim/serve/workload/api_server.hpp)
//     vllm_config: vllm.yaml                  vLLM's engine arguments, imported into the keys above
//                                             (sim/scenario/vllm_config.hpp)
//
// The phase ends when every request has finished, failed or been rejected. KV blocks still being
// written then (mooncake's pool and SSD tier) are written in the background, contending with
// later phases (kv_drain_bytes, kv_drain_end_s). Metrics: the declared table
// ServeTally::metric_table() (`llsim models` lists it); CSVs: sim/serve/engine/serve_tally.hpp.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_single.yaml
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/phase/phase.hpp"
#include "sim/phase/work_units.hpp"
#include "sim/serve/engine/batch_scheduler.hpp"
#include "sim/serve/engine/scaling_driver.hpp"
#include "sim/serve/engine/serve_system.hpp"
#include "sim/serve/kv/kv_swap_pool.hpp"
#include "sim/serve/scaling/autoscaler.hpp"
#include "sim/serve/weights/weight_source.hpp"
#include "sim/serve/workload/api_server.hpp"
#include "sim/serve/workload/serve_workload.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/wait_ledger.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/memory_pool.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace llsim {

namespace {

const ParamTable kBatchingParams = {
    ParamSpec::text("scheduler", "how an iteration is composed (models/batch_scheduler/): v1 chunks prompts beside "
                                 "the decodes, v0 prefills them whole in iterations of their own")
        .among(&Registry<BatchScheduler>::names)
        .defaults("v1"),
    ParamSpec::integer("max_batch_tokens", "tokens one iteration computes at most (vLLM max_num_batched_tokens)")
        .defaults("8192")
        .at_least(1)
        .at_most(1e8),
    ParamSpec::integer("max_batch_size", "sequences running at once on an instance (vLLM max_num_seqs)")
        .defaults("256")
        .at_least(1)
        .at_most(1e6),
    ParamSpec::integer("prefill_chunk", "scheduler v1: prompt tokens of one sequence per iteration (prompts "
                                        "prefilled whole, as vLLM did before chunked prefill: scheduler v0)")
        .defaults("512")
        .at_least(1),
    ParamSpec::integer("block_size", "tokens per KV block of the paged allocator")
        .defaults("16")
        .at_least(1)
        .at_most(1e6),
    ParamSpec::quantity("gpu_memory_utilization", Dimension::Number, "share of HBM for weights and KV (vLLM's default)")
        .defaults("0.9")
        .positive()
        .at_most(1),
    ParamSpec::integer("kv_blocks", "KV blocks of a GPU instance, as vLLM's log prints them ('# GPU blocks'); "
                                    "default: derived from the HBM left after the weights")
        .may_be_absent()
        .at_least(1)
        .at_most(1e15),
    ParamSpec::quantity("activation_reserve", Dimension::Size,
                        "HBM per GPU kept for activations when the KV block count is derived (vLLM profiles it)")
        .defaults("0B")
        .at_least(0),
    ParamSpec::quantity("watermark", Dimension::Number,
                        "share of the KV blocks a prompt's admission must leave free (vLLM V0's block manager: "
                        "0.01; V1 has none)")
        .defaults("0")
        .at_least(0)
        .at_most(0.5),
    ParamSpec::flag("padded_budget", "count a whole-prompt batch's tokens as its prompts times its longest prompt, "
                                     "as vLLM V0's scheduler did before chunked prefill (scheduler v0)")
        .defaults("false"),
    ParamSpec::one_of("preemption", {"recompute", "swap"},
                      "what a sequence preempted for KV blocks loses: recompute (its KV dropped, "
                      "prefilled again) or swap (its KV moved to CPU memory over PCIe, or to swap_to, and "
                      "back)")
        .defaults("recompute"),
    ParamSpec::quantity("swap_space", Dimension::Size,
                        "CPU memory per GPU for swapped-out KV, with preemption swap; default: vLLM's 4 GiB")
        .may_be_absent()
        .positive(),
    ParamSpec::text("swap_to", "a memory_pool service that preemption by swap puts KV into instead of the GPU "
                               "host's CPU memory: over the network, or over PCIe to a server on the host itself; "
                               "default: the CPU memory")
        .may_be_absent(),
    ParamSpec::integer("max_model_len", "prompt + output tokens at most (vLLM's max_model_len): a longer output "
                                        "stops there, a prompt that reaches it is rejected; default: no cap")
        .may_be_absent()
        .at_least(2)
        .at_most(1e9),
};

const ParamTable kServeParams = {
    ParamSpec::section("model", "the served model {preset} or {params, layers, d_model, kv_heads, head_dim, "
                                "dtype_bytes} or {params, kv_bytes_per_token}")
        .with_fields(llm_model_params()),
    ParamSpec::choice<ServeSystem>("system", "the serving system {impl, ...}"),
    ParamSpec::choice<IterationModel>("iteration", "iteration time {impl, ...}").defaults("{impl: roofline}"),
    ParamSpec::section("batching", "continuous batching and paged KV").defaults("{}").with_fields(kBatchingParams),
    ParamSpec::section("workload", "a trace {trace, format} or a synthetic load {requests, arrival, input_tokens, "
                                   "output_tokens}")
        .with_fields(serve_workload_params()),
    ParamSpec::section("slo", "{ttft, tbt, tbt_statistic, tbt_tail}").with_fields(slo_params()),
    ParamSpec::section("api_server", "the front end's time before a request reaches its engine {per_request, "
                                     "per_input_token, processes}, counted in its TTFT; absent: none")
        .may_be_absent()
        .with_fields(api_server_params()),
    ParamSpec::section("weights", "where instances load their weights before serving {path, from, fill_from, chunk, "
                                  "in_flight}; absent: they start loaded")
        .may_be_absent()
        .with_fields(weight_source_params()),
    ParamSpec::choice<Autoscaler>("autoscale", "how many instances are allocated over time {impl, ...}")
        .defaults("{impl: none}"),
    ParamSpec::quantity("sample_period", Dimension::Duration, "time between rows of <phase>_instances.csv")
        .defaults("1s")
        .positive(),
    ParamSpec::text("vllm_config",
                    "vLLM's engine arguments as `vllm serve --config FILE` reads them (max-num-seqs, "
                    "tensor-parallel-size, ...), imported into this phase's batching, system, iteration and model "
                    "keys when the scenario loads; an argument llsim does not model is an error naming it")
        .may_be_absent(),
};

ServeBatching parse_batching(const Params& p)
{
  ServeBatching b;
  b.base.max_batch_tokens = p.integer("max_batch_tokens");
  b.base.max_batch_size   = p.integer("max_batch_size");
  // How whole prompts were asked for before scheduler v0.
  if (p.has("prefill_chunk") && p.ref().child("prefill_chunk").node().IsScalar() &&
      p.ref().child("prefill_chunk").node().Scalar() == "0")
    p.fail("prefill_chunk", "0 does not turn chunking off: prompts prefilled whole are `scheduler: v0`");
  p.text("scheduler");  // checks the name, and fills in the default
  b.base.scheduler  = Registry<BatchScheduler>::create_named(p.ref().child("scheduler"), {});
  const bool chunks = b.base.scheduler->chunks_prompts();
  if (!chunks && p.has("prefill_chunk"))
    p.fail("prefill_chunk", "applies to a scheduler that chunks prompts (v1); v0 prefills them whole");
  if (chunks)
    b.base.prefill_chunk = p.integer("prefill_chunk");
  b.base.block_size        = p.integer("block_size");
  b.gpu_memory_utilization = p.quantity("gpu_memory_utilization");
  b.kv_blocks              = p.has("kv_blocks") ? p.integer("kv_blocks") : 0;
  b.activation_reserve_B   = p.quantity("activation_reserve");
  b.watermark              = p.quantity("watermark");
  b.base.max_model_len     = p.has("max_model_len") ? p.integer("max_model_len") : 0;
  b.base.padded_budget     = p.flag("padded_budget");
  if (b.base.padded_budget && chunks)
    p.fail("padded_budget", "applies to whole-prompt batches: set scheduler: v0");
  b.swap = p.text("preemption") == "swap";
  if (p.has("swap_space") && !b.swap)
    p.fail("swap_space", "applies to preemption: swap (this phase preempts by recompute)");
  b.swap_space_B = p.has("swap_space") ? p.quantity("swap_space") : 4.0 * 1024 * 1024 * 1024;  // vLLM's default
  b.swap_to_pool = p.has("swap_to");
  if (b.swap_to_pool && !b.swap)
    p.fail("swap_to", "applies to preemption: swap (this phase preempts by recompute)");
  if (b.swap_to_pool && p.has("swap_space"))
    p.fail("swap_space", "the swap_to pool's capacity holds the swapped KV: give swap_space or swap_to, not both");
  if (b.base.max_batch_tokens < b.base.max_batch_size)
    p.fail("max_batch_tokens", "must be at least max_batch_size (every running sequence decodes one token)");
  return b;
}

// vLLM's engine stops generating at max_model_len. A prompt that reaches it keeps its length:
// the system rejects it on arrival (Batcher::fits).
void cap_at_max_model_len(std::vector<TraceRequest>& requests, int64_t max_model_len)
{
  if (max_model_len == 0)
    return;
  for (TraceRequest& r : requests)
    if (r.input_tokens < max_model_len)
      r.output_tokens = std::min(r.output_tokens, max_model_len - r.input_tokens);
}

class ServePhase : public Phase {
 public:
  ServePhase(const Params& p, const PhaseLoadContext& c)
      : model_(parse_llm_model(p.section("model", llm_model_params())))
      , slo_(parse_slo(p.section("slo", slo_params())))
      , sample_period_s_(p.quantity("sample_period"))
  {
    if (p.has("api_server"))
      api_server_ = parse_api_server(p.section("api_server", api_server_params()));
    const Params batching = p.section("batching", kBatchingParams);
    batching_             = parse_batching(batching);
    if (batching_.swap_to_pool)
      swap_pool_ = std::make_unique<KvSwapPool>(c.services.get<MemoryPool>(batching, "swap_to"), c.phase_name);
    const Params w = p.section("workload", serve_workload_params());
    workload_      = load_serve_workload(w, c.seed, "phase." + c.phase_name + ".workload");
    cap_at_max_model_len(workload_.requests, batching_.base.max_model_len);
    batching_.base.hash_block_tokens = workload_.block_tokens;
    if (p.has("weights"))
      weights_ = std::make_unique<WeightSource>(p.section("weights", weight_source_params()), c.services,
                                                model_.weight_B(), "phase '" + c.phase_name + "'");
    system_     = Registry<ServeSystem>::create(p.raw("system"),
                                                {c.platform, c.services, model_, batching_, p.raw("iteration"), slo_,
                                                 c.claims, c.seed, "phase." + c.phase_name, c.notes, weights_ != nullptr});
    autoscaler_ = Registry<Autoscaler>::create(p.raw("autoscale"), {static_cast<int64_t>(system_->instances())});
    if (weights_) {
      std::vector<const GroupSpec*> groups;
      for (const GroupClaim& claim : c.claims)
        groups.push_back(c.platform.find(claim.group));
      weights_->check_instances(p, "weights", groups);
    }
    if (autoscaler_->scales() && system_->scalable() == nullptr)
      p.fail("autoscale", "this serving system does not scale (vllm instances of one pipeline stage and no "
                          "data-parallel ranks do)");
    if (autoscaler_->scales() && api_server_ && api_server_->processes == 0)
      p.fail("api_server", "give its processes under autoscaling: the front end does not follow the instances "
                           "allocated");
  }

  void run(PhaseRuntime& runtime) override
  {
    const auto& requests = workload_.requests;
    tally_               = std::make_unique<ServeTally>(requests, slo_, system_->instances(), sample_period_s_);
    tally_->set_client_timeout(workload_.client_timeout_s);
    // The environment outlives run(): the system's background work (KV writes) goes on after it.
    progress_ = std::make_unique<WaitPoint>();
    env_      = std::make_unique<ServeEnv>(ServeEnv{runtime.platform, runtime.faults, *tally_, requests, runtime.label,
                                               [p = progress_.get()] { p->notify_all(); }, weights_.get(),
                                               model_.weight_B()});
    env_->swap_pool = swap_pool_.get();
    if (weights_)
      weights_->start(runtime.platform, runtime.faults);
    if (autoscaler_->scales())
      env_->allocated_at_start = ScalingDriver::initial(*autoscaler_);
    tally_->set_provisioning(autoscaler_->limits().provisioning_s);
    const double start = now();
    tally_->start(start);
    system_->start(*env_);
    if (autoscaler_->scales()) {
      driver_ = std::make_unique<ScalingDriver>(*autoscaler_, *system_->scalable(), *env_, tally_->scaling());
      driver_->start();
    }
    if (api_server_)
      for (const auto& [at, i] : after_api_server()) {
        sleep_until(start + at);
        system_->arrive(static_cast<int64_t>(i));
      }
    else
      for (size_t i = 0; i < requests.size(); ++i) {
        sleep_until(start + requests[i].arrival_s);
        system_->arrive(static_cast<int64_t>(i));
      }
    progress_->wait_until([this] { return tally_->all_done(); }, std::numeric_limits<double>::infinity());
    charge_time_outside_batches();
    if (driver_)
      driver_->stop();
    system_->close();
    if (weights_)
      weights_->stop();
  }

  // When each request reaches the system, in that order: when the front end (api_server) lets
  // it go. Keeps each request's time in the front end for the bottleneck attribution.
  std::vector<std::pair<double, size_t>> after_api_server()
  {
    const auto& requests = workload_.requests;
    std::vector<std::pair<double, size_t>> order;
    order.reserve(requests.size());
    const int64_t processes =
        api_server_->processes > 0 ? api_server_->processes : static_cast<int64_t>(system_->entry_points());
    const std::vector<double> exits = api_server_exits(requests, *api_server_, processes);
    api_server_s_.resize(requests.size());
    for (size_t i = 0; i < requests.size(); ++i) {
      order.emplace_back(exits[i], i);
      api_server_s_[i] = exits[i] - requests[i].arrival_s;
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return order;
  }

  // The requests' time outside a batch, less what the ledger has from elsewhere (KV transfers):
  // first their time in the front end, then their wait for their instance's weights, then the
  // rest divided between KV memory and batch slots as the waits the instances saw through their
  // iterations divide; time no iteration saw (no instance running) stays undivided. The loads' own I/O is the phase's
  // provisioning work, apart (InstanceWeights).
  void charge_time_outside_batches() const
  {
    double elsewhere = 0;
    for (const auto& [resource, seconds] : phase_waits(phase_tag()))
      elsewhere += resource.rfind("GPU", 0) == 0 ? 0 : seconds;
    const double front =
        std::min(std::max(0.0, tally_->queued_request_seconds() - elsewhere), tally_->sum_over_finished(api_server_s_));
    if (front > 0)
      charge_wait("in the API server", front);
    const double queued  = tally_->queued_request_seconds() - elsewhere - front;
    const double weights = std::min(std::max(0.0, queued), tally_->weight_wait_seconds());
    if (weights > 0)
      charge_wait("waiting for weights", weights);
    const double outside = queued - weights;
    const double kv = tally_->kv_wait_seconds(), slots = tally_->slot_wait_seconds();
    if (!(kv + slots > 0)) {
      charge_wait("waiting for a batch slot or KV memory", outside);
      return;
    }
    charge_wait("waiting for KV memory", outside * kv / (kv + slots));
    charge_wait("waiting for a batch slot", outside * slots / (kv + slots));
  }

  void check_with_others() const override
  {
    if (weights_)
      weights_->check_known();
  }

  std::vector<GroupUse> usage() const override { return system_ ? system_->totals().usage : std::vector<GroupUse>{}; }

  PhaseTime time_spent(std::map<std::string, double> charged) const override
  {
    return {std::move(charged), "the requests' time"};
  }

  // After the simulation, so that the system's totals include its background work.
  Metrics metrics() const override
  {
    return tally_ ? tally_->metrics(workload_.bad_lines, system_->totals()) : Metrics{};
  }

  std::vector<OutputTable> tables() const override
  {
    if (!tally_)
      return {};
    std::vector<OutputTable> tables = {{"requests", tally_->requests_table()},
                                       {"instances", tally_->instances_table()}};
    if (!tally_->scaling().empty())
      tables.push_back({"scaling", tally_->scaling().table()});
    if (!tally_->swaps().empty())
      tables.push_back({"swaps", tally_->swaps().table()});
    if (!tally_->loads().empty())
      tables.push_back({"loads", tally_->loads().table()});
    if (!tally_->operator_tally().empty())
      tables.push_back({"operators", tally_->operator_tally().table()});
    return tables;
  }

 private:
  LlmModel model_;
  SloSpec slo_;
  double sample_period_s_;
  std::optional<ApiServerSpec> api_server_;
  std::vector<double> api_server_s_;  // each request's time in it
  ServeBatching batching_;
  ServeWorkload workload_;
  std::unique_ptr<WeightSource> weights_;
  std::unique_ptr<KvSwapPool> swap_pool_;
  std::unique_ptr<ServeSystem> system_;
  std::unique_ptr<Autoscaler> autoscaler_;
  std::unique_ptr<ScalingDriver> driver_;
  std::unique_ptr<ServeTally> tally_;
  std::unique_ptr<WaitPoint> progress_;
  std::unique_ptr<ServeEnv> env_;
};

}  // namespace

LLSIM_REGISTER(Phase, "serve", ServePhase, "LLM inference on a serving system against an SLO", kServeParams);
LLSIM_DECLARE_METRICS(Phase, "serve", ServeTally::metric_table());
LLSIM_DECLARE_WORK_UNITS("serve", {{"output_tokens", 1e6, "M_output_tokens",
                                    "a million output tokens of requests that did not fail"}});

}  // namespace llsim
