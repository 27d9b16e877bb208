// Fault model `none`: the hosts never fail (the same as giving the group no entry). No keys.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_unreliable.yaml --set 'faults.0={group: workers, impl: none}'
#include "sim/core/registry.hpp"
#include "sim/faults/fault_model.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class NoFaults : public FaultModel {
 public:
  NoFaults(const Params&, const Context&) {}
  Outage outage(size_t, size_t, double, Rng&) const override { return {}; }
  double mtbf_s(size_t) const override { return std::numeric_limits<double>::infinity(); }
};

}  // namespace

LLSIM_REGISTER(FaultModel, "none", NoFaults, "hosts never fail", kNoParams);

}  // namespace llsim
