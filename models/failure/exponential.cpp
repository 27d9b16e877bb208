// Failure model `exponential`: every node fails independently at a constant rate 1/node_mtbf
// (a failed node is replaced), so the job fails at rate nodes/node_mtbf at a node drawn at
// random. node_mtbf: duration, required (e.g. 5y).
#include "sim/core/registry.hpp"
#include "sim/train/interfaces.hpp"

#include <cmath>

namespace llsim {

namespace {

const ParamTable kExponentialParams = {
    ParamSpec::quantity("node_mtbf", Dimension::Duration, "mean time between failures of one node").positive(),
};

class ExponentialFailures : public FailureModel {
 public:
  ExponentialFailures(const Params& p, const Context& c)
      : nodes_(c.nodes), job_mtbf_s_(p.quantity("node_mtbf") / static_cast<double>(c.nodes))
  {
  }
  Failure next_failure(double after, Rng& rng) override
  {
    const double gap = -job_mtbf_s_ * std::log(1.0 - rng.uniform());
    const auto node  = static_cast<int64_t>(rng.uniform() * static_cast<double>(nodes_));
    return {after + gap, node};
  }
  double job_mtbf_s() const override { return job_mtbf_s_; }

 private:
  int64_t nodes_;
  double job_mtbf_s_;
};

}  // namespace

LLSIM_REGISTER(FailureModel, "exponential", ExponentialFailures, "constant failure rate per node",
               kExponentialParams);

}  // namespace llsim
