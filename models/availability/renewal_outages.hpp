// Outages as a renewal process: up times drawn from a distribution, then a downtime drawn from
// another. Shared by the `exponential` and `weibull` availability models.
#pragma once
#include "sim/core/distribution.hpp"
#include "sim/mw/availability.hpp"

#include <memory>

namespace llsim {

inline Outage renewal_outage(double after, const Distribution& uptime, const Distribution& downtime, Rng& rng)
{
  Outage o;
  o.down_s = after + uptime.sample(rng);
  o.up_s   = o.down_s + downtime.sample(rng);
  return o;
}

}  // namespace llsim
