// Checkpoint policy `young`: T = sqrt(2 C M) with C the measured blocking cost of a checkpoint
// and M the job MTBF of the failure model (Young, CACM 1974). No keys.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.policy={impl: young}'
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_policy.hpp"
#include "sim/train/young_daly.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class YoungPolicy : public CheckpointPolicy {
 public:
  YoungPolicy(const Params&, const Context&) {}
  double interval_s(double cost_s, double mtbf_s, double) const override { return young_interval(cost_s, mtbf_s); }
};

}  // namespace

LLSIM_REGISTER(CheckpointPolicy, "young", YoungPolicy, "Young's interval sqrt(2CM)", kNoParams);

}  // namespace llsim
