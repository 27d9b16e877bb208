// A serving instance's weight loads (serve_instance.hpp): each load alone from its source, or
// shared with the other engines of a pipeline-parallel instance (weight_share.hpp), recorded in
// the loads' tally. A load waits on the instance's wake-up point until the weights are in, the
// instance stops loading (released or closed), or its GPU host fails, whichever comes first.
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/serve/weights/weight_source.hpp"

#include <functional>
#include <memory>

namespace llsim {

class LoadTally;
class WaitPoint;
class WeightShare;

class InstanceWeights {
 public:
  // `loaded` runs when a load completes, before the source may offer the instance as a peer
  // (while `serving`: whether it serves now).
  InstanceWeights(WeightSource& source, const WeightTarget& target, LoadTally& loads, std::function<void()> loaded,
                  std::function<bool()> serving);

  // An engine of a pipeline-parallel instance: it loads with the instance's other engines.
  void share(std::shared_ptr<WeightShare> share) { share_ = std::move(share); }
  // Its first load is not one of the phase's start (it was released at the start).
  void not_initial() { initial_ = false; }

  enum class Outcome { Loaded, Stopped, Failed };
  // One load: Loaded when the weights are in, Stopped (the load abandoned) when `stops` came
  // true first, Failed when the GPU host failed first, at `fail_at`.
  Outcome load(WaitPoint& wake, double fail_at, const std::function<bool()>& stops);

 private:
  Outcome load_alone(WaitPoint& wake, double fail_at, const std::function<bool()>& stops);
  Outcome load_with_engines(WaitPoint& wake, double fail_at, const std::function<bool()>& stops);

  WeightSource& source_;
  WeightTarget target_;
  LoadTally& loads_;
  std::function<void()> loaded_;
  std::function<bool()> serving_;
  std::shared_ptr<WeightShare> share_;
  uint64_t share_completed_ = 0;     // the shared load it last completed
  bool initial_             = true;  // allocated at the phase's start, not loaded yet
};

}  // namespace llsim
