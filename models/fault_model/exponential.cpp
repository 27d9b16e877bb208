// Fault model `exponential`: each host fails after an exponentially distributed up time of mean
// `mtbf` (memoryless: a constant failure rate), stays down for `downtime`, then starts a fresh up
// time. N such hosts together fail at rate N / mtbf.
//   mtbf: duration, required          downtime: duration or distribution, default 30min
// Sources: the classic HPC and volunteer-computing failure model (e.g. Kondo et al., 2007); a
// Llama-3-like job ("The Llama 3 herd of models", 2024: 419 unexpected interruptions in 54 days
// on 16,384 GPUs) is
// one failure every 3.1 h for the job.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_unreliable.yaml --set 'faults.0={group: workers, impl: exponential, mtbf: 2h, downtime: 1min}'
#include "models/fault_model/renewal.hpp"
#include "sim/core/registry.hpp"

namespace llsim {

namespace {

const ParamTable kExponentialParams = {
    ParamSpec::quantity("mtbf", Dimension::Duration, "mean up time of one host between failures").positive(),
    downtime_param(),
};

class ExponentialFaults : public FaultModel {
 public:
  ExponentialFaults(const Params& p, const Context&)
      : mtbf_s_(p.quantity("mtbf"))
      , uptime_(exponential_distribution(mtbf_s_))
      , downtime_(p.distribution("downtime"))
  {}
  Outage outage(size_t, size_t, double previous_up, Rng& rng) const override
  {
    return renewal_outage(previous_up, *uptime_, *downtime_, rng);
  }
  double mtbf_s(size_t) const override { return mtbf_s_; }

 private:
  double mtbf_s_;
  std::shared_ptr<const Distribution> uptime_, downtime_;
};

}  // namespace

LLSIM_REGISTER(FaultModel, "exponential", ExponentialFaults, "exponential up times of mean mtbf, then a downtime",
               kExponentialParams);

}  // namespace llsim
