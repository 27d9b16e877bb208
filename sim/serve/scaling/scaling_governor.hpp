// How an autoscaler's proposals become allocation changes (autoscaler.hpp): held within [min,
// max]; a scale-up at once unless the last change is younger than `cooldown`; a scale-down once
// every proposal of the last `scale_down_delay` was below the allocation, to the highest of
// them, and not within `cooldown` of the last change either. Pure logic.
#pragma once
#include "sim/serve/scaling/autoscaler.hpp"

#include <cstdint>
#include <limits>

namespace llsim {

class ScalingGovernor {
 public:
  explicit ScalingGovernor(const ScalingLimits& limits)
      : limits_(limits)
  {}
  // The allocation to have now, given the current one and the policy's proposal.
  int64_t decide(double now_s, int64_t allocated, int64_t proposed);

 private:
  ScalingLimits limits_;
  double last_change_s_  = -std::numeric_limits<double>::infinity();
  double below_since_s_  = std::numeric_limits<double>::quiet_NaN();  // NaN: not below
  int64_t highest_below_ = 0;
};

}  // namespace llsim
