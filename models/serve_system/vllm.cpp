// Serve system `vllm`: colocated instances (vLLM; Kwon et al., SOSP'23) on the hosts of a GPU
// group, each prefilling and decoding its own requests with continuous batching and the KV in
// the HBM its weights leave. An instance takes tp x pp of a host's GPUs (default: all of them,
// tensor-parallel), so a host runs count / (tp x pp) instances; with pp pipeline stages an
// instance runs as pp engines (vLLM's virtual engines), each with its own batches and 1/pp of
// its KV, assuming the stages overlap the engines' batches perfectly. A router (models/router/,
// `router:`) sends each request to one engine. Routers that weigh the time to first token get
// this estimate: the prefill, by the iteration model, of the prompts queued or running at the
// engine plus this request's tokens that its prefix cache does not hold.
// prefix_caching: vLLM's automatic prefix caching inside an instance (needs prefix blocks in the
// trace: Mooncake's hash_ids). A request that could never fit in an instance's KV is rejected.
// dp: vLLM's data parallelism for a mixture of experts: each dp consecutive instances of a host
// are the ranks of one engine, each with its own batches and attention, their MoE layers'
// experts shared out among them (each holds 1/dp of the routed experts, and the iteration model
// prices the MoE layers over their dp x tp GPUs, the ranks assumed equally loaded).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_single.yaml --set 'phases.chat.system={impl: vllm, instances: gpu}'
#include "sim/core/registry.hpp"
#include "sim/serve/cost/iteration_model.hpp"
#include "sim/serve/engine/instance_set.hpp"
#include "sim/serve/engine/prefill_estimate.hpp"
#include "sim/serve/engine/router.hpp"
#include "sim/serve/engine/serve_system.hpp"
#include "sim/serve/weights/weight_share.hpp"
#include "sim/sg/log.hpp"

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_system_vllm, llsim_serve, "vllm's routing and rejections");

namespace llsim {

namespace {

const ParamTable kVllmParams = {
    ParamSpec::text("instances", "GPU group; each host runs count / (tp x pp) instances"),
    ParamSpec::integer("tp", "tensor-parallel GPUs of an instance; default: the host's GPUs / pp")
        .may_be_absent()
        .at_least(1)
        .at_most(1024),
    ParamSpec::integer("pp", "pipeline stages of an instance, each run as an engine of its own batches")
        .defaults("1")
        .at_least(1)
        .at_most(1024),
    ParamSpec::integer("dp",
                       "data-parallel ranks of a mixture of experts (vLLM's --data-parallel-size): each dp "
                       "instances of a host share out their MoE layers' routed experts, each holding 1/dp of them")
        .defaults("1")
        .at_least(1)
        .at_most(1024),
    ParamSpec::text("router", "which instance takes a request (models/router/)")
        .among(&Registry<Router>::names)
        .defaults("least_loaded"),
    ParamSpec::flag("prefix_caching", "reuse the KV of cached prefix blocks within an instance").defaults("false"),
};

class Vllm : public ServeSystem {
 public:
  Vllm(const Params& p, const Context& c)
      : group_(c.platform.group_param(p, "instances"))
  {
    c.claims.push_back({group_.name, p.raw("instances")});
    require_gpus(p, "instances", group_);
    layout_.pp          = p.integer("pp");
    layout_.dp          = p.integer("dp");
    const int64_t gpus  = group_.gpu->count;
    const std::string n = std::to_string(gpus) + " GPUs of a host of group '" + group_.name + "'";
    if (!p.has("tp") && gpus % layout_.pp != 0)
      p.fail("pp", std::to_string(layout_.pp) + " pipeline stages must divide the " + n);
    if (!p.has("tp") && gpus % (layout_.pp * layout_.dp) != 0)
      p.fail("dp",
             "pp x dp (" + std::to_string(layout_.pp) + " x " + std::to_string(layout_.dp) + ") must divide the " + n);
    layout_.tp = p.has("tp") ? p.integer("tp") : gpus / (layout_.pp * layout_.dp);
    if (gpus % (layout_.tp * layout_.pp) != 0)
      p.fail("tp",
             "tp x pp (" + std::to_string(layout_.tp) + " x " + std::to_string(layout_.pp) + ") must divide the " + n);
    engines_per_host_ = group_.gpu->count / layout_.tp;  // instances per host x pp
    if (layout_.dp > 1 && !c.model.moe())
      p.fail("dp", "data-parallel ranks of a dense model are independent replicas: llsim's instances already are "
                   "(dp applies to a mixture of experts)");
    if (layout_.dp > 1 && layout_.pp > 1)
      p.fail("dp", "data parallelism with pipeline stages is not modelled");
    if (engines_per_host_ % layout_.dp != 0)
      p.fail("dp",
             "dp x tp (" + std::to_string(layout_.dp) + " x " + std::to_string(layout_.tp) + ") must divide the " + n);
    if (layout_.dp > 1 && c.weights_through_storage)
      p.fail("dp", "data-parallel ranks hold different experts: loading their weights through storage (weights:) is "
                   "not modelled (peers and copies would mix the ranks' shares)");
    config_                = gpu_instance_config(p, "instances", group_, c.model, c.batching, layout_);
    config_.prefix_caching = p.flag("prefix_caching");
    model_                 = gpu_iteration_model(c, group_, layout_);
    rank_weight_B_         = c.model.rank_weight_B(layout_.dp);
    router_name_           = p.text("router");
    router_                = router_named(p, "router");
    if (router_->reads_prefix_caches() && !config_.prefix_caching)
      p.fail("router", router_name_ + " routes by the instances' prefix caches: set prefix_caching: true");
  }

  size_t instances() const override { return static_cast<size_t>(group_.count * engines_per_host_); }
  size_t entry_points() const override { return instances() / static_cast<size_t>(layout_.pp); }

  // Engine k of host h is instance h x engines_per_host + k.
  void start(ServeEnv& env) override
  {
    env_ = &env;
    // A data-parallel rank loads the weights it holds (its share of the experts).
    env.weight_B = rank_weight_B_;
    std::shared_ptr<WeightShare> share;  // the weights of the instance whose engines start
    for (int64_t i = 0; i < group_.count; ++i)
      for (int64_t k = 0; k < engines_per_host_; ++k) {
        const int index = static_cast<int>(i * engines_per_host_ + k);
        if (env.weights != nullptr && layout_.pp > 1 && k % layout_.pp == 0)
          share = std::make_shared<WeightShare>(
              *env.weights, WeightTarget{index, group_.host(i), layout_.tp * layout_.pp, env.weight_B},
              env.tally.loads());
        instances_.start(env, index, group_.host(i), config_, InstanceRole::Colocated, layout_.tp,
                         [this, &share](ServeInstance& inst) {
                           inst.set_iteration_model(*model_);
                           if (share)
                             inst.share_weights(share);
                         });
      }
  }

  void arrive(int64_t id) override
  {
    const TraceRequest& r = env_->requests[static_cast<size_t>(id)];
    const Batcher& first  = instances_.front().batcher();
    if (!first.fits(r.input_tokens, r.input_tokens + r.output_tokens)) {
      XBT_DEBUG("request %ld rejected: %ld tokens need %ld KV blocks, an instance holds %ld", static_cast<long>(id),
                static_cast<long>(r.input_tokens + r.output_tokens),
                static_cast<long>(first.blocks_for(r.input_tokens + r.output_tokens)),
                static_cast<long>(first.kv_blocks()));
      reject_request(*env_, id, kTooBigForKv);
      return;
    }
    ServeInstance* to = route(*router_, instances_, [this, &r](ServeInstance& inst) { return first_token_s(inst, r); });
    if (to == nullptr) {  // every instance is down
      XBT_DEBUG("request %ld rejected: every instance is down", static_cast<long>(id));
      reject_request(*env_, id, kNoInstanceUp);
      return;
    }
    XBT_DEBUG("request %ld -> instance %d (%s; loads %s)", static_cast<long>(id), to->index(), router_name_.c_str(),
              instances_.loads().c_str());
    env_->tally.assigned(id, to->index());
    to->submit({id, r.input_tokens, r.output_tokens, 0, 0, &r.hash_ids});
  }

  void close() override { instances_.close_and_join(); }

  // Instances of one engine each scale one by one.
  InstanceSet* scalable() override { return layout_.pp == 1 && layout_.dp == 1 ? &instances_ : nullptr; }

  ServeTotals totals() const override
  {
    ServeTotals t;
    t.preemptions       = instances_.preemptions();
    t.recomputed_tokens = instances_.recomputed_tokens();
    t.instance_time_s   = instances_.held_seconds();
    t.gpu_use           = instances_.gpu_use();
    t.routed_instances  = static_cast<int64_t>(instances_.size());
    t.usage             = {instances_.usage(group_)};
    return t;
  }

 private:
  // The estimated time to `r`'s first token at `inst`: the prefill of what it has queued or
  // running, then of the request's tokens its prefix cache does not hold.
  double first_token_s(ServeInstance& inst, const TraceRequest& r) const
  {
    inst.notice_idle_failure();
    const int64_t cached =
        std::min(inst.batcher().cached_blocks(r.hash_ids) * config_.hash_block_tokens, r.input_tokens - 1);
    return prefill_seconds(*model_, r.input_tokens - cached, cached) + queued_prefill_seconds(*model_, inst.batcher());
  }

  const GroupSpec& group_;
  InstanceLayout layout_;
  int64_t engines_per_host_ = 1;
  double rank_weight_B_     = 0;  // the weights an instance holds
  BatcherConfig config_;
  std::unique_ptr<IterationModel> model_;
  std::string router_name_;
  std::unique_ptr<Router> router_;
  ServeEnv* env_ = nullptr;
  InstanceSet instances_;
};

}  // namespace

LLSIM_REGISTER(ServeSystem, "vllm", Vllm, "colocated prefill and decode per instance, KV in HBM, a router",
               kVllmParams);

}  // namespace llsim
