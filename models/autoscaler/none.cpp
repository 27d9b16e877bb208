// Autoscaler `none`: every instance of the system is allocated for the whole phase. No keys.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_single.yaml --set 'phases.chat.autoscale={impl: none}'
#include "sim/core/registry.hpp"
#include "sim/serve/scaling/autoscaler.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class NoAutoscaling : public Autoscaler {
 public:
  NoAutoscaling(const Params&, const Context& c) { limits_.min = limits_.max = c.instances; }
  bool scales() const override { return false; }
  const ScalingLimits& limits() const override { return limits_; }
  int64_t initial() const override { return limits_.max; }
  int64_t propose(const ScaleObservation&) override { return limits_.max; }

 private:
  ScalingLimits limits_;
};

}  // namespace

LLSIM_REGISTER(Autoscaler, "none", NoAutoscaling, "every instance allocated for the whole phase", kNoParams);

}  // namespace llsim
