#include "sim/serve/engine/scaling_driver.hpp"

#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/wait_point.hpp"

#include <algorithm>
#include <tuple>
#include <vector>

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_scaling_driver, llsim_serve, "autoscaling decisions");

namespace llsim {

ScalingDriver::ScalingDriver(Autoscaler& policy, InstanceSet& instances, ServeEnv& env, ScaleTally& tally)
    : policy_(policy)
    , instances_(instances)
    , env_(env)
    , tally_(tally)
    , governor_(policy.limits())
    , decisions_(kMostScalingDecisions, policy.limits().period_at, "a longer period fits")
{}

ScalingDriver::~ScalingDriver() = default;

int64_t ScalingDriver::initial(const Autoscaler& policy)
{
  return std::clamp(policy.initial(), policy.limits().min, policy.limits().max);
}

void ScalingDriver::start()
{
  start_s_ = now();
  busy_seen_.assign(instances_.size(), 0);
  work_seen_.assign(instances_.size(), 0);
  for (size_t i = 0; i < instances_.size(); ++i) {
    busy_seen_[i] = env_.tally.busy_seconds(instances_[i].index());
    work_seen_[i] = instances_[i].gpu_use().compute_s;
  }
  wake_  = std::make_unique<WaitPoint>();
  actor_ = start_actor(env_.platform, instances_.front().host(), "autoscaler", env_.label, [this] { loop(); });
}

void ScalingDriver::stop()
{
  stopped_ = true;
  wake_->notify_all();
  actor_.join();
}

void ScalingDriver::loop()
{
  while (!stopped_) {
    wake_->wait_until([this] { return stopped_; }, now() + policy_.limits().period_s);
    if (stopped_)
      return;
    decisions_.add(1, now());
    const ScaleObservation o = observe();
    const int64_t proposed   = policy_.propose(o);
    const int64_t decided    = governor_.decide(o.now_s, o.allocated, proposed);
    XBT_DEBUG("at %g s: %ld allocated (%ld serving), %g queued, %g running: %ld proposed, %ld decided", o.now_s,
              static_cast<long>(o.allocated), static_cast<long>(o.serving), o.queued, o.running,
              static_cast<long>(proposed), static_cast<long>(decided));
    apply(decided);
    tally_.decision(o, now(), proposed, decided);
  }
}

ScaleObservation ScalingDriver::observe()
{
  ScaleObservation o;
  o.now_s   = now() - start_s_;
  double kv = 0;
  for (size_t i = 0; i < instances_.size(); ++i) {
    const ServeInstance& inst = instances_[i];
    const double busy         = env_.tally.busy_seconds(inst.index());
    const double work         = inst.gpu_use().compute_s;
    o.busy += (busy - busy_seen_[i]) / policy_.limits().period_s;
    o.gpu_compute += (work - work_seen_[i]) / policy_.limits().period_s;
    busy_seen_[i] = busy;
    work_seen_[i] = work;
    if (!inst.allocated())
      continue;
    o.allocated += 1;
    o.serving += inst.serving() ? 1 : 0;
    o.running += static_cast<double>(inst.batcher().running());
    o.queued += static_cast<double>(inst.load() - inst.batcher().running());
    kv += inst.batcher().kv_used_share();
  }
  o.kv_used_share = o.allocated > 0 ? kv / static_cast<double>(o.allocated) : 0;
  return o;
}

void ScalingDriver::apply(int64_t decided)
{
  std::vector<ServeInstance*> on, off;
  for (size_t i = 0; i < instances_.size(); ++i)
    (instances_[i].allocated() ? on : off).push_back(&instances_[i]);
  const auto allocated = static_cast<int64_t>(on.size());
  if (decided > allocated) {
    // Warm ones first (still holding their GPUs), then cold ones whose host is up.
    std::stable_partition(off.begin(), off.end(), [](const ServeInstance* i) { return i->holds_gpus(); });
    int64_t wanted = decided - allocated;
    for (ServeInstance* inst : off) {
      if (wanted == 0)
        break;
      if (!inst->holds_gpus() && !inst->up())
        continue;
      if (!inst->holds_gpus())
        tally_.cold_start(inst->index(), now());
      inst->allocate(policy_.limits().provisioning_s);
      wanted -= 1;
    }
    return;
  }
  // Those not serving yet first, then the least loaded, the highest index first.
  std::sort(on.begin(), on.end(), [](const ServeInstance* a, const ServeInstance* b) {
    return std::make_tuple(a->serving(), a->load(), -a->index()) <
           std::make_tuple(b->serving(), b->load(), -b->index());
  });
  for (int64_t k = 0; k < allocated - decided; ++k) {
    on[static_cast<size_t>(k)]->release();
    tally_.released(on[static_cast<size_t>(k)]->index(), now());
  }
}

}  // namespace llsim
