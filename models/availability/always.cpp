// Availability `always`: workers never fail. No keys.
#include "sim/core/registry.hpp"
#include "sim/mw/availability.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class AlwaysAvailable : public AvailabilityModel {
 public:
  AlwaysAvailable(const Params&, const Context&) {}
  Outage next_outage(size_t, double, Rng&) const override { return {}; }
};

}  // namespace

LLSIM_REGISTER(AvailabilityModel, "always", AlwaysAvailable, "workers never fail", kNoParams);

}  // namespace llsim
