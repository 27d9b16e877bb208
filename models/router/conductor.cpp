// Router `conductor`: Mooncake's global scheduler (Qin et al., FAST'25): the candidate with the
// smallest estimated time to the request's first token, ties to the lowest index. Under Mooncake
// the estimate adds, to the prefill queued at the instance and the request's own, the time to
// bring the prefix blocks the pool holds beyond the instance's own over its NIC
// (models/serve_system/mooncake.cpp). Needs the instances' prefix caches.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_mooncake.yaml --set phases.chat.workload.duration=20s
#include "sim/core/registry.hpp"
#include "sim/serve/engine/router.hpp"

namespace llsim {

namespace {

const ParamTable kConductorParams = {};

class Conductor : public Router {
 public:
  Conductor(const Params&, const Context&) {}

  int64_t route(const RouteView& view) override { return fastest_first_token(view, false); }
  bool reads_prefix_caches() const override { return true; }
};

}  // namespace

LLSIM_REGISTER(Router, "conductor", Conductor, "Mooncake's: the smallest estimated time to first token",
               kConductorParams);

}  // namespace llsim
