#include "sim/serve/scaling/scaling_governor.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

int64_t ScalingGovernor::decide(double now_s, int64_t allocated, int64_t proposed)
{
  const int64_t wanted = std::clamp(proposed, limits_.min, limits_.max);
  const bool cooled    = now_s - last_change_s_ >= limits_.cooldown_s;
  if (wanted >= allocated)
    below_since_s_ = std::nan("");
  if (wanted > allocated) {
    if (!cooled)
      return allocated;
    last_change_s_ = now_s;
    return wanted;
  }
  if (wanted == allocated)
    return allocated;
  if (std::isnan(below_since_s_)) {
    below_since_s_ = now_s;
    highest_below_ = wanted;
  }
  highest_below_ = std::max(highest_below_, wanted);
  if (now_s - below_since_s_ < limits_.scale_down_s || !cooled)
    return allocated;
  last_change_s_ = now_s;
  below_since_s_ = std::nan("");
  return highest_below_;
}

}  // namespace llsim
