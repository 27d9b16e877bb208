// A serving instance's weight loads (serve_instance.hpp): alone, or shared by the engines of a
// pipeline-parallel instance (weight_share.hpp).
#include "sim/faults/host_faults.hpp"
#include "sim/serve/engine/serve_instance.hpp"
#include "sim/serve/weights/weight_share.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/wait_point.hpp"

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_instance_weights, llsim_serve, "weight loads of serving instances");

namespace llsim {

void ServeInstance::load_weights()
{
  // A released instance that still holds requests loads to serve them, then gives its GPUs back.
  while (!loaded_ && !closed_ && (allocated_ || !batcher_.idle())) {
    if (!up()) {  // it came back from a release while its host is down
      fail();
      continue;
    }
    if (share_ ? load_with_engines() : load_alone())
      return;
  }
}

bool ServeInstance::load_alone()
{
  const size_t record = loads_->started(index_, now(), first_load_);
  // Its weights go to its GPU host: only that host's failure cuts the load.
  const double fail_at = faults_->next_failure(host_, now());
  const auto job       = weights_->load(weight_target_, [this] { wake_->notify_all(); });
  wake_->wait_until([this, &job] { return job->over() || stops_loading(); }, fail_at);
  if (job->over()) {
    XBT_DEBUG("instance %d: weights loaded from %s", index_, job->source().c_str());
    loads_->completed(record, now(), weight_target_.weight_B, job->source());
    loaded_     = true;
    first_load_ = false;
    weights_->holds(index_, host_, [this] { return serving(); });
    return true;
  }
  job->cancel();
  if (stops_loading()) {  // no more work comes, or it was released
    loads_->abandoned(record, now(), job->source());
    return true;
  }
  loads_->interrupted(record, now(), job->source());
  fail();
  return false;
}

bool ServeInstance::load_with_engines()
{
  const double fail_at         = faults_->next_failure(host_, now());
  const WeightShare::Turn turn = share_->join([this] { wake_->notify_all(); }, first_load_, share_completed_);
  wake_->wait_until([this, turn] { return share_->over(turn) || stops_loading(); }, fail_at);
  if (share_->over(turn)) {
    XBT_DEBUG("instance %d: weights loaded with its instance's other engines", index_);
    share_completed_ = turn;
    loaded_          = true;
    first_load_      = false;
    if (share_->whole().instance == index_)  // a peer source names the instance once
      weights_->holds(index_, host_, [this] { return serving(); });
    return true;
  }
  const bool stops = stops_loading();
  share_->leave(turn, stops);
  if (stops)
    return true;
  fail();
  return false;
}

}  // namespace llsim
