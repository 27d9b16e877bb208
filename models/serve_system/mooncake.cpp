// Serve system `mooncake`: disaggregated prefill and decode with a pooled KVCache (Mooncake;
// Qin et al., FAST'25 and arXiv 2407.00079).
// - P prefill instances (hosts of `prefill`) and D decode instances (hosts of `decode`).
// - KV tiers: each prefill instance keeps prefix blocks in the HBM its running prompts leave
//   free (`local_cache`); below it the `pool` (a memory_pool service over the nodes' CPU
//   memory) and optionally an SSD tier (`ssd: {storage, capacity}`) written through.
// - A router (`router:`, models/router/; default: `conductor`, Mooncake's global scheduler)
//   sends a request to a prefill instance. Routers that weigh the time to first token get this
//   estimate: the prefill time of the prompts queued there, plus the prefill of the tokens it
//   cannot reuse (the longer of its local prefix and the pool's), plus the time to bring the
//   pool's blocks over its NIC. The estimates use the phase's iteration model.
// - A loader on the prefill node reads the reused blocks from the pool (or SSD) over the network
//   before the prompt is queued. When the prompt is done (first token out), the prompt's KV
//   goes to the least loaded decode instance over the network, and the prompt's blocks the pool
//   lacks are written to it (and through to SSD). The phase ends with its last request: writes
//   still under way then go on in the background (kv_drain_bytes, kv_drain_end_s).
// - early_rejection: a request whose estimated TTFT, or whose decode instance's estimated
//   iteration time with it, exceeds the SLO is rejected on arrival (Mooncake's prediction-based
//   early rejection, simplified to the current load). The TTFT estimate is the one the
//   Conductor routes by: the prefill, prompt by prompt, of what the instance has queued or is
//   loading, plus this request's own; the iteration estimate counts the decode instance's
//   running sequences at their contexts and those queued or on their way at this request's
//   prompt length.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_mooncake.yaml --set phases.chat.workload.duration=20s
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/serve/cost/iteration_model.hpp"
#include "sim/serve/engine/instance_set.hpp"
#include "sim/serve/engine/prefill_estimate.hpp"
#include "sim/serve/engine/router.hpp"
#include "sim/serve/engine/serve_system.hpp"
#include "sim/serve/kv/kv_block_store.hpp"
#include "sim/sg/activities.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/wait_ledger.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/memory_pool.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>
#include <limits>

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_system_mooncake, llsim_serve,
                                "Mooncake's routing, early rejection, prefix loads and prefill-to-decode hand-offs");

namespace llsim {

namespace {

const ParamTable kSsdParams = {
    ParamSpec::text("storage", "storage service holding the SSD tier"),
    ParamSpec::quantity("capacity", Dimension::Size, "bytes of KV blocks the tier keeps (least recently used deleted)")
        .positive(),
};

const ParamTable kMooncakeParams = {
    ParamSpec::text("prefill", "GPU group; each host is one prefill instance"),
    ParamSpec::text("decode", "GPU group; each host is one decode instance"),
    ParamSpec::text("pool", "memory_pool service holding KV blocks (Mooncake's pool over CPU memory)"),
    ParamSpec::flag("local_cache", "prefill instances keep prefix blocks in their free HBM").defaults("true"),
    ParamSpec::section("ssd", "{storage, capacity}: an SSD tier below the pool, written through")
        .may_be_absent()
        .with_fields(kSsdParams),
    ParamSpec::flag("early_rejection", "reject on arrival when the estimated TTFT or TBT misses the SLO")
        .defaults("false"),
    ParamSpec::text("router", "which prefill instance takes a request (models/router/)")
        .among(&Registry<Router>::names)
        .defaults("conductor"),
};

// What a prefill instance would reuse of a request's prefix, and the estimated time to its first
// token there.
struct PrefillChoice {
  int64_t local = 0, reuse = 0;  // prefix blocks in its own cache; reused (its own or the pool's)
  double own_s  = 0;             // the prefill of the tokens it cannot reuse
  double ttft_s = 0;             // queued prefill + own + bringing the pool's blocks
};

constexpr double kNoDeadline = std::numeric_limits<double>::infinity();

class Mooncake : public ServeSystem {
 public:
  Mooncake(const Params& p, const Context& c)
      : prefill_group_(c.platform.group_param(p, "prefill"))
      , decode_group_(c.platform.group_param(p, "decode"))
      , model_(c.model)
      , slo_(c.slo)
      , early_rejection_(p.flag("early_rejection"))
      , router_(router_named(p, "router"))
  {
    if (prefill_group_.name == decode_group_.name)
      p.fail("decode", "prefill and decode instances must be different groups");
    c.claims.push_back({prefill_group_.name, p.raw("prefill")});
    c.claims.push_back({decode_group_.name, p.raw("decode")});
    prefill_config_                = gpu_instance_config(p, "prefill", prefill_group_, c.model, c.batching);
    prefill_config_.prefix_caching = p.flag("local_cache");
    decode_config_                 = gpu_instance_config(p, "decode", decode_group_, c.model, c.batching);
    prefill_model_                 = gpu_iteration_model(c, prefill_group_);
    decode_model_                  = gpu_iteration_model(c, decode_group_);
    block_tokens_                  = c.batching.base.hash_block_tokens;
    MemoryPool& pool               = c.services.get<MemoryPool>(p, "pool");
    StorageService* ssd            = nullptr;
    double ssd_capacity            = 0;
    if (p.has("ssd")) {
      const Params s = p.section("ssd", kSsdParams);
      ssd            = &c.services.get<StorageService>(s, "storage");
      ssd_capacity   = s.quantity("capacity");
      if (ssd_capacity > ssd->capacity_B())
        s.fail("capacity", format_bytes(ssd_capacity) + " is more than storage '" + s.text("storage") + "' holds (" +
                               format_bytes(ssd->capacity_B()) + " on all its disks)");
    }
    store_ = std::make_unique<KvBlockStore>(pool, ssd, ssd_capacity, block_tokens_, c.model.kv_B_per_token);
  }

  size_t instances() const override { return static_cast<size_t>(prefill_group_.count + decode_group_.count); }
  size_t entry_points() const override { return static_cast<size_t>(prefill_group_.count); }

  void start(ServeEnv& env) override
  {
    env_ = &env;
    store_->set_faults(env.faults);
    loading_s_.assign(static_cast<size_t>(prefill_group_.count), 0);
    for (int64_t i = 0; i < prefill_group_.count; ++i)
      prefill_.start(env, static_cast<int>(i), prefill_group_.host(i), prefill_config_, InstanceRole::PrefillOnly,
                     prefill_group_.gpu->count, [this, host = prefill_group_.host(i)](ServeInstance& inst) {
                       inst.set_iteration_model(*prefill_model_);
                       inst.set_on_handoff([this, host](int64_t id) { hand_off(host, id); });
                       // A request of one output token ends at prefill; its blocks still go to the pool.
                       inst.set_on_finished([this, host](int64_t id) {
                         env_->progress();
                         start_actor(env_->platform, host, "kv-store-" + std::to_string(id), env_->label,
                                     [this, host, id, since = now()] { store_blocks(host, id, since); });
                       });
                     });
    for (int64_t i = 0; i < decode_group_.count; ++i)
      decode_.start(env, static_cast<int>(prefill_group_.count + i), decode_group_.host(i), decode_config_,
                    InstanceRole::DecodeOnly, decode_group_.gpu->count,
                    [this](ServeInstance& inst) { inst.set_iteration_model(*decode_model_); });
  }

  void arrive(int64_t id) override
  {
    const TraceRequest& r = request(id);
    if (!prefill_.front().batcher().fits(r.input_tokens, r.input_tokens + 1) ||
        !decode_.front().batcher().fits(r.input_tokens, r.input_tokens + r.output_tokens) ||
        decode_.least_loaded() == nullptr) {
      XBT_DEBUG("request %ld rejected: its prompt needs %ld KV blocks of a prefill instance's %ld, its %ld tokens %ld "
                "of a decode instance's %ld (decode instances up: %s)",
                static_cast<long>(id), static_cast<long>(prefill_.front().batcher().blocks_for(r.input_tokens + 1)),
                static_cast<long>(prefill_.front().batcher().kv_blocks()),
                static_cast<long>(r.input_tokens + r.output_tokens),
                static_cast<long>(decode_.front().batcher().blocks_for(r.input_tokens + r.output_tokens)),
                static_cast<long>(decode_.front().batcher().kv_blocks()), decode_.least_loaded() ? "some" : "none");
      reject_request(*env_, id, decode_.least_loaded() == nullptr ? kNoInstanceUp : kTooBigForKv);
      return;
    }
    const int64_t remote  = store_->held_prefix(r.hash_ids);
    ServeInstance* best   = route(*router_, prefill_, [this, id, &r, remote](ServeInstance& inst) {
      const PrefillChoice c = choice_at(inst, r, remote);
      XBT_LOG(xbt_log_priority_trace,
                "request %ld at prefill instance %d: TTFT estimate %g s, %ld blocks reused (%ld local)",
                static_cast<long>(id), inst.index(), c.ttft_s, static_cast<long>(c.reuse), static_cast<long>(c.local));
      return c.ttft_s;
    });
    const PrefillChoice c = best == nullptr ? PrefillChoice{0, 0, 0, kNoDeadline} : choice_at(*best, r, remote);
    if (best == nullptr || (early_rejection_ && (c.ttft_s > slo_.ttft_s || decode_seconds_with(r) > slo_.tbt_s))) {
      XBT_DEBUG("request %ld rejected%s: TTFT estimate %g s (SLO %g s), decode iteration estimate %g s (SLO %g s)",
                static_cast<long>(id), best == nullptr ? " (every prefill instance is down)" : " early", c.ttft_s,
                slo_.ttft_s, decode_seconds_with(r), slo_.tbt_s);
      reject_request(*env_, id, best == nullptr ? kNoInstanceUp : kEarlyRejection);
      return;
    }
    XBT_DEBUG("request %ld -> prefill instance %d (smallest TTFT estimate, %g s: %g s of its own prefill); reuses %ld "
              "prefix blocks, %ld local and %ld from the pool or SSD (held there: %ld); loads %s",
              static_cast<long>(id), best->index(), c.ttft_s, c.own_s, static_cast<long>(c.reuse),
              static_cast<long>(c.local), static_cast<long>(c.reuse - c.local), static_cast<long>(remote),
              prefill_.loads().c_str());
    env_->tally.assigned(id, best->index());
    loading_s_[static_cast<size_t>(best->index())] += c.own_s;  // queued from now on, for the estimates
    best->expect();  // a sequence on its way, counted in the instance's load while its prefix loads
    start_actor(env_->platform, best->host(), "kv-load-" + std::to_string(id), env_->label, [this, id, best, c] {
      const TraceRequest& r = request(id);
      const int64_t got     = store_->fetch(best->host(), r.hash_ids, c.local, c.reuse, r.input_tokens);
      const int64_t reuse   = got > c.local ? got : c.local;
      if (c.reuse > c.local)
        XBT_DEBUG("request %ld: %ld of %ld prefix blocks loaded from the pool or SSD", static_cast<long>(id),
                  static_cast<long>(got - c.local), static_cast<long>(c.reuse - c.local));
      if (reuse > 0)
        env_->tally.prefix_hit(id, reuse);
      loading_s_[static_cast<size_t>(best->index())] -= c.own_s;
      best->submit({id, r.input_tokens, r.output_tokens, reused_tokens(reuse, r), 0, &r.hash_ids}, true);
    });
  }

  // Blocks still going to the pool or SSD tier are written in the background: the drain.
  void close() override
  {
    store_->drain_from(now());
    prefill_.close_and_join();
    decode_.close_and_join();
  }

  ServeTotals totals() const override
  {
    ServeTotals t;
    t.kv_B_transferred  = store_->moved_B() + handoff_B_;
    t.pool_peak_B       = store_->peak_B();
    t.evicted_blocks    = store_->evictions();
    t.preemptions       = prefill_.preemptions() + decode_.preemptions();
    t.recomputed_tokens = prefill_.recomputed_tokens() + decode_.recomputed_tokens();
    t.drain_B           = store_->drain_B();
    t.drain_end_s       = store_->drain_end_s();
    t.instance_time_s   = prefill_.held_seconds() + decode_.held_seconds();
    t.gpu_use           = prefill_.gpu_use();
    t.gpu_use += decode_.gpu_use();
    t.routed_instances = static_cast<int64_t>(prefill_.size());
    t.usage            = {prefill_.usage(prefill_group_), decode_.usage(decode_group_)};
    return t;
  }

 private:
  const TraceRequest& request(int64_t id) const { return env_->requests[static_cast<size_t>(id)]; }

  // Prompt tokens whose KV `blocks` reused blocks cover (the last token is always computed).
  int64_t reused_tokens(int64_t blocks, const TraceRequest& r) const
  {
    return std::min(blocks * block_tokens_, r.input_tokens - 1);
  }

  double prefill_seconds(int64_t tokens, int64_t context) const
  {
    return llsim::prefill_seconds(*prefill_model_, tokens, context);
  }

  // The prefill time of what a prefill instance has queued or running, prompt by prompt, and of
  // the requests still loading their prefix for it.
  // The prefix `inst` would reuse of `r` (the pool holds `remote` leading blocks of it), and the
  // estimated time to its first token there.
  PrefillChoice choice_at(ServeInstance& inst, const TraceRequest& r, int64_t remote) const
  {
    inst.notice_idle_failure();
    PrefillChoice c;
    c.local      = inst.batcher().cached_blocks(r.hash_ids);
    c.reuse      = std::max(c.local, remote);
    double fetch = 0;
    for (int64_t k = c.local; k < c.reuse; ++k)
      fetch += store_->block_B(static_cast<size_t>(k), r.input_tokens);
    c.own_s  = prefill_seconds(r.input_tokens - reused_tokens(c.reuse, r), reused_tokens(c.reuse, r));
    c.ttft_s = queue_seconds(inst) + c.own_s + fetch / prefill_group_.nic_Bps;
    return c;
  }

  double queue_seconds(const ServeInstance& inst) const
  {
    return loading_s_[static_cast<size_t>(inst.index())] + queued_prefill_seconds(*prefill_model_, inst.batcher());
  }

  // The least loaded decode instance's iteration time once this request joins it: its running
  // decodes at their contexts, plus this request and those queued or on their way at this
  // request's prompt length (+inf when every decode instance is down).
  double decode_seconds_with(const TraceRequest& r) const
  {
    const ServeInstance* d = decode_.least_loaded();
    if (d == nullptr)
      return kNoDeadline;
    BatchWork w    = d->batcher().decode_work(0);
    w.follows_step = true;  // a decode step in the steady state follows another
    for (int64_t i = d->batcher().running(); i <= d->load(); ++i)
      w.add_decode(r.input_tokens);
    return decode_model_->seconds(w);
  }

  // The prompt's KV goes to the least loaded decode instance that is up; it is lost when none
  // is, or when the sender or the receiver fails before it has arrived.
  void hand_off(HostId from, int64_t id)
  {
    ServeInstance* to = decode_.least_loaded();
    if (to != nullptr) {
      XBT_DEBUG("request %ld: prompt KV (%g B) -> decode instance %d (least loaded; loads %s)", static_cast<long>(id),
                static_cast<double>(request(id).input_tokens) * model_.kv_B_per_token, to->index(),
                decode_.loads().c_str());
      to->expect();  // counted as load at once, so that handoffs at the same time spread
    } else {
      XBT_DEBUG("request %ld lost: no decode instance is up for its prompt KV", static_cast<long>(id));
      lose(id);
    }
    start_actor(env_->platform, from, "kv-send-" + std::to_string(id), env_->label,
                [this, from, id, to, since = now()] {
                  if (to != nullptr) {
                    const TraceRequest& r = request(id);
                    const double bytes    = static_cast<double>(r.input_tokens) * model_.kv_B_per_token;
                    const double deadline = std::min(env_->faults.next_failure(from, now()), to->next_failure());
                    const bool arrived    = transfer(env_->platform, from, to->host(), bytes, deadline);
                    if (arrived) {
                      handoff_B_ += from == to->host() ? 0 : bytes;
                      to->submit({id, r.input_tokens, r.output_tokens, r.input_tokens, 1, nullptr}, true);
                    } else {
                      XBT_DEBUG("request %ld lost: a host failed before its prompt KV arrived", static_cast<long>(id));
                      to->lose_incoming(id);
                    }
                  }
                  store_blocks(from, id, since);
                });
  }

  void lose(int64_t id)
  {
    env_->tally.failed(id, now());
    env_->progress();
  }

  // Writes the prompt's blocks the pool lacks from `host`, whose HBM holds them since `since`:
  // nothing when the host failed since then, and no more once it fails. It may go on after the
  // phase has ended (the drain).
  // No request waits for its blocks to reach the pool: the rest of this actor is background.
  void store_blocks(HostId host, int64_t id, double since)
  {
    set_phase_tag(background_tag(phase_tag()));
    const double fails_at = env_->faults.next_failure(host, since);
    if (fails_at > now())
      store_->store(host, request(id).hash_ids, request(id).input_tokens, fails_at);
  }

  const GroupSpec& prefill_group_;
  const GroupSpec& decode_group_;
  LlmModel model_;
  SloSpec slo_;
  bool early_rejection_;
  BatcherConfig prefill_config_, decode_config_;
  std::unique_ptr<IterationModel> prefill_model_, decode_model_;
  int64_t block_tokens_ = 512;
  std::unique_ptr<KvBlockStore> store_;
  ServeEnv* env_ = nullptr;
  InstanceSet prefill_, decode_;
  double handoff_B_ = 0;
  std::unique_ptr<Router> router_;
  std::vector<double> loading_s_;  // per prefill instance: estimated prefill of requests loading
};

}  // namespace

LLSIM_REGISTER(ServeSystem, "mooncake", Mooncake,
               "disaggregated prefill and decode instances with a pooled KVCache and a global scheduler",
               kMooncakeParams);

}  // namespace llsim
