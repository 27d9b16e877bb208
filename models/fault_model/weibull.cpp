// Fault model `weibull`: each host's up times follow a Weibull law of `scale` and `shape`
// (shape < 1: most failures come soon after a restart; shape = 1 is exponential), then a
// `downtime`. Its MTBF is scale x Gamma(1 + 1/shape).
//   scale: duration, required    shape: number > 0, required    downtime: default 30min
// Source: Schroeder & Gibson, DSN 2006 (Weibull shape 0.7-0.8 for HPC node failures).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_unreliable.yaml --set 'faults.0={group: workers, impl: weibull, scale: 2h, shape: 0.7, downtime: 1min}'
#include "models/fault_model/renewal.hpp"
#include "sim/core/registry.hpp"

#include <cmath>

namespace llsim {

namespace {

const ParamTable kWeibullParams = {
    ParamSpec::quantity("scale", Dimension::Duration, "Weibull scale of one host's up times").positive(),
    ParamSpec::quantity("shape", Dimension::Number, "Weibull shape of up times").positive(),
    downtime_param(),
};

class WeibullFaults : public FaultModel {
 public:
  WeibullFaults(const Params& p, const Context&)
      : uptime_(weibull_distribution(p.quantity("scale"), p.quantity("shape")))
      , downtime_(p.distribution("downtime"))
  {}
  Outage outage(size_t, size_t, double previous_up, Rng& rng) const override
  {
    return renewal_outage(previous_up, *uptime_, *downtime_, rng);
  }
  double mtbf_s(size_t) const override { return uptime_->mean(); }

 private:
  std::shared_ptr<const Distribution> uptime_, downtime_;
};

}  // namespace

LLSIM_REGISTER(FaultModel, "weibull", WeibullFaults, "Weibull up times, then a downtime", kWeibullParams);

}  // namespace llsim
