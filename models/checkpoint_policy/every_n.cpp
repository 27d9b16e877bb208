// Checkpoint policy `every_n`: a checkpoint every `iterations` iterations (integer >= 1).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.policy={impl: every_n, iterations: 1}'
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_policy.hpp"

namespace llsim {

namespace {

const ParamTable kEveryNParams = {
    ParamSpec::integer("iterations", "iterations between checkpoints").at_least(1),
};

class EveryN : public CheckpointPolicy {
 public:
  EveryN(const Params& p, const Context&)
      : iterations_(static_cast<double>(p.integer("iterations")))
  {}
  double interval_s(double, double, double iteration_s) const override { return iterations_ * iteration_s; }

 private:
  double iterations_;
};

}  // namespace

LLSIM_REGISTER(CheckpointPolicy, "every_n", EveryN, "every N iterations", kEveryNParams);

}  // namespace llsim
