// Failure model `none`: nodes never fail. No keys.
#include "sim/core/registry.hpp"
#include "sim/train/interfaces.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class NoFailures : public FailureModel {
 public:
  NoFailures(const Params&, const Context&) {}
  Failure next_failure(double, Rng&) override { return {}; }
  double job_mtbf_s() const override { return std::numeric_limits<double>::infinity(); }
};

}  // namespace

LLSIM_REGISTER(FailureModel, "none", NoFailures, "nodes never fail", kNoParams);

}  // namespace llsim
