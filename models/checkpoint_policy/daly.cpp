// Checkpoint policy `daly`: Daly's higher-order interval (Daly, FGCS 2006), with C the measured
// blocking cost of a checkpoint and M the job MTBF of the failure model. No keys.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.policy={impl: daly}'
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_policy.hpp"
#include "sim/train/young_daly.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class DalyPolicy : public CheckpointPolicy {
 public:
  DalyPolicy(const Params&, const Context&) {}
  double interval_s(double cost_s, double mtbf_s, double) const override { return daly_interval(cost_s, mtbf_s); }
};

}  // namespace

LLSIM_REGISTER(CheckpointPolicy, "daly", DalyPolicy, "Daly's interval", kNoParams);

}  // namespace llsim
