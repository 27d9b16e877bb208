// Outages as a renewal process: an up time drawn from one distribution, then a downtime drawn
// from another, host after host independently. Shared by the `exponential` and `weibull` models.
#pragma once
#include "sim/core/distribution.hpp"
#include "sim/faults/fault_model.hpp"

#include <memory>

namespace llsim {

inline Outage renewal_outage(double previous_up, const Distribution& uptime, const Distribution& downtime, Rng& rng)
{
  Outage o;
  o.down_s = previous_up + uptime.sample(rng);
  o.up_s   = o.down_s + downtime.sample(rng);
  return o;
}

// The `downtime` key of the renewal models.
inline ParamSpec downtime_param()
{
  return ParamSpec::distribution("downtime", Dimension::Duration,
                                 "time a host stays down (a duration or a distribution); a training job "
                                 "restarts on a spare node meanwhile")
      .defaults("30min")
      .at_least(0);
}

}  // namespace llsim
