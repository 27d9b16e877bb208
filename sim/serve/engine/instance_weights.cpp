#include "sim/serve/engine/instance_weights.hpp"

#include "sim/serve/weights/load_tally.hpp"
#include "sim/serve/weights/weight_share.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/wait_ledger.hpp"
#include "sim/sg/wait_point.hpp"

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_instance_weights, llsim_serve, "weight loads of serving instances");

namespace llsim {

InstanceWeights::InstanceWeights(WeightSource& source, const WeightTarget& target, LoadTally& loads,
                                 std::function<void()> loaded, std::function<bool()> serving)
    : source_(source)
    , target_(target)
    , loads_(loads)
    , loaded_(std::move(loaded))
    , serving_(std::move(serving))
{}

InstanceWeights::Outcome InstanceWeights::load(WaitPoint& wake, double fail_at, const std::function<bool()>& stops)
{
  return share_ ? load_with_engines(wake, fail_at, stops) : load_alone(wake, fail_at, stops);
}

InstanceWeights::Outcome InstanceWeights::load_alone(WaitPoint& wake, double fail_at,
                                                     const std::function<bool()>& stops)
{
  const size_t record = loads_.started(target_.instance, now(), initial_);
  const auto job      = [this, &wake] {
    const BackgroundScope provisioning;  // the requests' wait for it is charged whole (ServeTally)
    return source_.load(target_, [&wake] { wake.notify_all(); });
  }();
  wake.wait_until([&job, &stops] { return job->over() || stops(); }, fail_at);
  if (job->over()) {
    XBT_DEBUG("instance %d: weights loaded from %s", target_.instance, job->source().c_str());
    loads_.completed(record, now(), target_.weight_B, job->source());
    initial_ = false;
    loaded_();
    source_.holds(target_.instance, target_.host, serving_);
    return Outcome::Loaded;
  }
  job->cancel();
  if (stops()) {  // no more work comes, or it was released
    loads_.abandoned(record, now(), job->source());
    return Outcome::Stopped;
  }
  loads_.interrupted(record, now(), job->source());
  return Outcome::Failed;
}

InstanceWeights::Outcome InstanceWeights::load_with_engines(WaitPoint& wake, double fail_at,
                                                            const std::function<bool()>& stops)
{
  const WeightShare::Turn turn = [this, &wake] {
    const BackgroundScope provisioning;
    return share_->join([&wake] { wake.notify_all(); }, initial_, share_completed_);
  }();
  wake.wait_until([this, turn, &stops] { return share_->over(turn) || stops(); }, fail_at);
  if (share_->over(turn)) {
    XBT_DEBUG("instance %d: weights loaded with its instance's other engines", target_.instance);
    share_completed_ = turn;
    initial_         = false;
    loaded_();
    if (share_->whole().instance == target_.instance)  // a peer source names the instance once
      source_.holds(target_.instance, target_.host, serving_);
    return Outcome::Loaded;
  }
  const bool stopped = stops();
  share_->leave(turn, stopped);
  return stopped ? Outcome::Stopped : Outcome::Failed;
}

}  // namespace llsim
