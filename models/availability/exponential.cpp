// Availability `exponential`: each worker fails after an exponentially distributed up time of
// mean `mtbf` (memoryless, constant failure rate), stays down for `downtime` (a duration or a
// distribution), then starts a fresh up time.
//   mtbf: duration, required      downtime: duration or distribution, default 30min
// Source: classic volunteer-computing availability models (e.g. Kondo et al., 2007).
#include "models/availability/renewal_outages.hpp"
#include "sim/core/registry.hpp"

namespace llsim {

namespace {

const ParamTable kExponentialParams = {
    ParamSpec::quantity("mtbf", Dimension::Duration, "mean time between failures of one worker").positive(),
    ParamSpec::distribution("downtime", Dimension::Duration, "time a worker stays down").defaults("30min").at_least(0),
};

class ExponentialAvailability : public AvailabilityModel {
 public:
  ExponentialAvailability(const Params& p, const Context&)
      : uptime_(exponential_distribution(p.quantity("mtbf"))), downtime_(p.distribution("downtime"))
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

LLSIM_REGISTER(AvailabilityModel, "exponential", ExponentialAvailability,
               "exponential up times (mean mtbf), then a downtime", kExponentialParams);

}  // namespace llsim
