#include "sim/serve/scaling/autoscaler.hpp"

#include <algorithm>

namespace llsim {

const ParamTable& scaling_params()
{
  static const ParamTable t = {
      ParamSpec::integer("min", "instances allocated at least (scaling to zero would need a queue in the router)")
          .defaults("1")
          .at_least(1),
      ParamSpec::integer("max", "instances allocated at most; default: all of the system's")
          .may_be_absent()
          .at_least(1),
      ParamSpec::quantity("cooldown", Dimension::Duration, "time after a change before the next")
          .defaults("60s")
          .at_least(0),
      ParamSpec::quantity("scale_down_delay", Dimension::Duration,
                          "time the proposals must stay below the allocation before it shrinks")
          .defaults("5min")
          .at_least(0),
      ParamSpec::quantity("period", Dimension::Duration, "time between decisions").defaults("10s").positive(),
      ParamSpec::quantity("provisioning", Dimension::Duration,
                          "from the decision until a new instance starts loading its weights (a host or container "
                          "coming up; assumption)")
          .defaults("0s")
          .at_least(0),
  };
  return t;
}

ScalingLimits parse_scaling_limits(const Params& p, int64_t instances)
{
  ScalingLimits l;
  l.min = p.integer("min");
  l.max = p.has("max") ? p.integer("max") : instances;
  if (l.max > instances)
    p.fail("max", std::to_string(l.max) + " is more than the system's " + std::to_string(instances) + " instances");
  if (l.min > l.max)
    p.fail("min", std::to_string(l.min) + " is more than max (" + std::to_string(l.max) + ")");
  l.cooldown_s     = p.quantity("cooldown");
  l.scale_down_s   = p.quantity("scale_down_delay");
  l.period_s       = p.quantity("period");
  l.period_at      = p.located("period");
  l.provisioning_s = p.quantity("provisioning");
  return l;
}

}  // namespace llsim
