// Availability `weibull`: up times follow a Weibull law of `scale` and `shape` (shape < 1: most
// failures come soon after a restart, as measured on desktop grids and HPC nodes; shape = 1 is
// exponential), then a `downtime`.
//   scale: duration, required   shape: number > 0, required   downtime: default 30min
// Source: Schroeder & Gibson, DSN 2006 (Weibull shape 0.7-0.8 for HPC node failures).
#include "models/availability/renewal_outages.hpp"
#include "sim/core/registry.hpp"

namespace llsim {

namespace {

const ParamTable kWeibullParams = {
    ParamSpec::quantity("scale", Dimension::Duration, "Weibull scale of up times").positive(),
    ParamSpec::quantity("shape", Dimension::Number, "Weibull shape of up times").positive(),
    ParamSpec::distribution("downtime", Dimension::Duration, "time a worker stays down").defaults("30min").at_least(0),
};

class WeibullAvailability : public AvailabilityModel {
 public:
  WeibullAvailability(const Params& p, const Context&)
      : uptime_(weibull_distribution(p.quantity("scale"), p.quantity("shape"))), downtime_(p.distribution("downtime"))
  {
  }
  Outage next_outage(size_t, double after, Rng& rng) const override
  {
    return renewal_outage(after, *uptime_, *downtime_, rng);
  }

 private:
  std::shared_ptr<const Distribution> uptime_, downtime_;
};

}  // namespace

LLSIM_REGISTER(AvailabilityModel, "weibull", WeibullAvailability, "Weibull up times, then a downtime",
               kWeibullParams);

}  // namespace llsim
