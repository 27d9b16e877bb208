// Fault model `none`: the hosts never fail (the same as giving the group no entry). No keys.
#include "sim/core/registry.hpp"
#include "sim/svc/fault_model.hpp"

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
