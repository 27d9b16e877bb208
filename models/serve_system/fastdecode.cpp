// Serve system `fastdecode`: the S-part of every layer (the projections and MLP, which read the
// weights) runs batched on GPU instances, the R-part (attention over the KV) on CPU nodes that
// hold the KV in their memory (FastDecode; He and Zhai, arXiv 2403.11421).
// - Each host of `gpu` is one instance; the hosts of `cpu` are shared out evenly, in order, as
//   its R-workers. The instance's KV is the R-workers' memory x kv_memory_share.
// - S time: the phase's iteration model for the batch without attention to the context (the
//   prefill's own attention stays on the GPU).
// - R time: the KV bytes the decodes attend to, read at the R-workers' memory bandwidth x
//   memory_efficiency, plus the network: for every layer, each R-worker receives its share of the
//   batch's queries (d_model x dtype bytes per decode) and sends back as many result bytes; a
//   prefill's new KV goes to the R-workers as well. These move as real flows, one round per
//   layer.
// - pipelined (as the paper runs two mini-batches in turn): an iteration takes max(S, R);
//   otherwise S + R.
// - A router (`router:`, models/router/; default least_loaded) sends each request to an instance.
//   Instances keep no prefix cache: routers that weigh the time to first token see the S-part's
//   prefill of what an instance has queued or running plus the request's own.
// memory_efficiency and kv_memory_share are assumptions.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run scenarios/paper/fastdecode.yaml
#include "sim/core/registry.hpp"
#include "sim/serve/cost/iteration_model.hpp"
#include "sim/serve/engine/instance_set.hpp"
#include "sim/serve/engine/prefill_estimate.hpp"
#include "sim/serve/engine/router.hpp"
#include "sim/serve/engine/serve_system.hpp"
#include "sim/sg/activities.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_system_fastdecode, llsim_serve, "fastdecode's routing and rejections");

namespace llsim {

namespace {

const ParamTable kFastDecodeParams = {
    ParamSpec::text("gpu", "GPU group; each host is one instance running the S-part"),
    ParamSpec::text("cpu", "CPU group holding the KV and running the R-part (shared evenly among instances)"),
    ParamSpec::quantity("kv_memory_share", Dimension::Number, "share of an R-worker's memory for KV (assumption)")
        .defaults("0.8")
        .positive()
        .at_most(1),
    ParamSpec::quantity("memory_efficiency", Dimension::Number,
                        "share of the CPU memory bandwidth attention reaches (assumption)")
        .defaults("0.7")
        .positive()
        .at_most(1),
    ParamSpec::flag("pipelined", "S and R of two mini-batches overlap: an iteration takes max(S, R)").defaults("true"),
    ParamSpec::text("router", "which instance takes a request (models/router/)")
        .among(&Registry<Router>::names)
        .defaults("least_loaded"),
};

constexpr double kNoDeadline = std::numeric_limits<double>::infinity();

class FastDecode : public ServeSystem {
 public:
  FastDecode(const Params& p, const Context& c)
      : gpu_group_(c.platform.group_param(p, "gpu"))
      , cpu_group_(c.platform.group_param(p, "cpu"))
      , model_(c.model)
      , memory_efficiency_(p.quantity("memory_efficiency"))
      , pipelined_(p.flag("pipelined"))
      , router_name_(p.text("router"))
      , router_(router_named(p, "router"))
  {
    require_gpus(p, "gpu", gpu_group_);
    c.claims.push_back({gpu_group_.name, p.raw("gpu")});
    c.claims.push_back({cpu_group_.name, p.raw("cpu")});
    if (cpu_group_.count % gpu_group_.count != 0)
      p.fail("cpu", std::to_string(cpu_group_.count) + " CPU hosts do not share out evenly over " +
                        std::to_string(gpu_group_.count) + " GPU instances");
    if (cpu_group_.memory_Bps <= 0)
      p.fail("cpu", "group '" + cpu_group_.name + "' needs memory_bandwidth (the R-part reads the KV at that rate)");
    if (!model_.has_shape())
      p.fail("gpu", "fastdecode needs the model's layers and d_model (the query and result bytes per layer)");
    const GpuSpec& gpu = *gpu_group_.gpu;
    if (c.batching.kv_blocks > 0 || c.batching.activation_reserve_B > 0)
      p.fail("cpu", std::string(c.batching.kv_blocks > 0 ? "batching.kv_blocks" : "batching.activation_reserve") +
                        " is for KV in GPU memory; FastDecode's KV is in the R-workers' memory (kv_memory_share)");
    if (c.batching.swap)
      p.fail("cpu", "batching.preemption swap moves KV from GPU to CPU memory; FastDecode's KV is already in the "
                    "R-workers' memory");
    if (model_.weight_B() > gpu.hbm_B * static_cast<double>(gpu.count) * c.batching.gpu_memory_utilization)
      p.fail("gpu", weights_error(model_, gpu_group_, c.batching.gpu_memory_utilization, "do not fit in"));
    workers_per_instance_ = cpu_group_.count / gpu_group_.count;
    config_               = c.batching.base;
    const double kv_room =
        static_cast<double>(workers_per_instance_) * cpu_group_.memory_B * p.quantity("kv_memory_share");
    const double block_B = static_cast<double>(config_.block_size) * model_.kv_B_per_token;
    config_.kv_blocks    = kv_blocks_in(p, "cpu", kv_room, block_B);
    if (config_.kv_blocks < 1)
      p.fail("cpu", "the R-workers' memory holds no KV block");
    config_.watermark_blocks =  // truncated, as vLLM V0 counts it
        static_cast<int64_t>(c.batching.watermark * static_cast<double>(config_.kv_blocks));
    s_model_ = gpu_iteration_model(c, gpu_group_);
  }

  size_t instances() const override { return static_cast<size_t>(gpu_group_.count); }

  void start(ServeEnv& env) override
  {
    env_ = &env;
    for (int64_t i = 0; i < gpu_group_.count; ++i)
      instances_.start(env, static_cast<int>(i), gpu_group_.host(i), config_, InstanceRole::Colocated,
                       gpu_group_.gpu->count, [this, i, &env](ServeInstance& inst) {
                         inst.set_run_iteration([this, i](const BatchWork& w) { return iterate(i, w); });
                         // The instance holds its KV on its R-workers: it fails when one of them does.
                         std::vector<HostId> hosts = {gpu_group_.host(i)};
                         for (int64_t k = 0; k < workers_per_instance_; ++k)
                           hosts.push_back(cpu_group_.host(i * workers_per_instance_ + k));
                         inst.set_faults(env.faults, hosts);
                       });
  }

  void arrive(int64_t id) override
  {
    const TraceRequest& r = env_->requests[static_cast<size_t>(id)];
    const Batcher& first  = instances_.front().batcher();
    if (!first.fits(r.input_tokens, r.input_tokens + r.output_tokens)) {
      XBT_DEBUG("request %ld rejected: %ld tokens need %ld KV blocks, an instance's R-workers hold %ld",
                static_cast<long>(id), static_cast<long>(r.input_tokens + r.output_tokens),
                static_cast<long>(first.blocks_for(r.input_tokens + r.output_tokens)),
                static_cast<long>(first.kv_blocks()));
      reject_request(*env_, id, kTooBigForKv);
      return;
    }
    ServeInstance* to = route(*router_, instances_, [this, &r](ServeInstance& inst) {
      return prefill_seconds(*s_model_, r.input_tokens, 0) + queued_prefill_seconds(*s_model_, inst.batcher());
    });
    if (to == nullptr) {  // every instance is down
      XBT_DEBUG("request %ld rejected: every instance is down", static_cast<long>(id));
      reject_request(*env_, id, kNoInstanceUp);
      return;
    }
    XBT_DEBUG("request %ld -> instance %d (%s; loads %s)", static_cast<long>(id), to->index(), router_name_.c_str(),
              instances_.loads().c_str());
    env_->tally.assigned(id, to->index());
    to->submit({id, r.input_tokens, r.output_tokens, 0, 0, nullptr});
  }

  void close() override { instances_.close_and_join(); }

  ServeTotals totals() const override
  {
    ServeTotals t;
    t.kv_B_transferred  = network_B_;
    t.preemptions       = instances_.preemptions();
    t.recomputed_tokens = instances_.recomputed_tokens();
    t.instance_time_s   = instances_.held_seconds();
    t.gpu_use           = instances_.gpu_use();
    t.routed_instances  = static_cast<int64_t>(instances_.size());
    t.usage             = {instances_.usage(gpu_group_)};  // the CPU workers: held all along
    return t;
  }

 private:
  // One iteration of instance `index`: the R-part's flows, then the rest of max(S, R) (or S + R).
  double iterate(int64_t index, const BatchWork& w)
  {
    const double start       = now();
    BatchWork s_part         = w;
    s_part.decode_context    = 0;  // attention over the context is the R-part
    s_part.prefill_kv_tokens = static_cast<double>(w.prefill_tokens);
    const double s_time      = s_model_->seconds(s_part);
    instances_[static_cast<size_t>(index)].add_gpu_use(s_model_->gpu_use(s_part, s_time, s_time));
    const double workers = static_cast<double>(workers_per_instance_);
    const double kv_read =
        w.decode_context * model_.kv_B_per_token / (workers * cpu_group_.memory_Bps * memory_efficiency_);
    const double per_layer =  // query (and result) bytes of one layer for one R-worker
        static_cast<double>(w.decodes) * static_cast<double>(model_.d_model) * model_.dtype_B / workers;
    const double new_kv   = static_cast<double>(w.prefill_tokens) * model_.kv_B_per_token / workers;
    const HostId gpu_host = gpu_group_.host(index);
    // One round of flows per layer while there are decodes; a round for the new KV alone otherwise.
    const int64_t rounds = per_layer >= 1 ? model_.layers : new_kv >= 1 ? 1 : 0;
    for (int64_t layer = 0; layer < rounds; ++layer) {
      std::vector<Flow> flows;
      for (int64_t k = 0; k < workers_per_instance_; ++k) {
        const HostId cpu = cpu_group_.host(index * workers_per_instance_ + k);
        const double out = per_layer + (layer == 0 ? new_kv : 0);
        flows.push_back({gpu_host, cpu, out});
        flows.push_back({cpu, gpu_host, per_layer});
        network_B_ += out + per_layer;
      }
      transfer_all(env_->platform, flows, kNoDeadline);
    }
    const double r_time = (now() - start) + kv_read;
    sleep_until(start + (pipelined_ ? std::max(s_time, r_time) : s_time + r_time));
    return s_time;
  }

  const GroupSpec& gpu_group_;
  const GroupSpec& cpu_group_;
  LlmModel model_;
  double memory_efficiency_;
  bool pipelined_;
  std::string router_name_;
  std::unique_ptr<Router> router_;
  int64_t workers_per_instance_ = 1;
  BatcherConfig config_;
  std::unique_ptr<IterationModel> s_model_;
  ServeEnv* env_ = nullptr;
  InstanceSet instances_;
  double network_B_ = 0;
};

}  // namespace

LLSIM_REGISTER(ServeSystem, "fastdecode", FastDecode,
               "S-part batched on GPUs, attention on CPU nodes holding the KV, pipelined", kFastDecodeParams);

}  // namespace llsim
