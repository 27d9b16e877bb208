// Checkpoint policy `fixed`: a checkpoint every `interval` of compute. interval: duration, required.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.policy={impl: fixed, interval: 10s}'
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_policy.hpp"

namespace llsim {

namespace {

const ParamTable kFixedParams = {
    ParamSpec::quantity("interval", Dimension::Duration, "compute time between checkpoints").positive(),
};

class FixedInterval : public CheckpointPolicy {
 public:
  FixedInterval(const Params& p, const Context&)
      : interval_s_(p.quantity("interval"))
  {}
  double interval_s(double, double, double) const override { return interval_s_; }

 private:
  double interval_s_;
};

}  // namespace

LLSIM_REGISTER(CheckpointPolicy, "fixed", FixedInterval, "a fixed compute interval", kFixedParams);

}  // namespace llsim
