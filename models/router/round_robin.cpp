// Router `round_robin`: the instances in turn, skipping those that are not candidates (down,
// released, or loading while others serve). It ignores load and prefix caches; on an even load
// that nothing queues for, it spreads the prompts most evenly in time (see least_loaded.cpp).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_even_poisson.yaml --set phases.chat.system.router=round_robin
#include "sim/core/registry.hpp"
#include "sim/serve/engine/router.hpp"

namespace llsim {

namespace {

const ParamTable kRoundRobinParams = {};

class RoundRobin : public Router {
 public:
  RoundRobin(const Params&, const Context&) {}

  int64_t route(const RouteView& view) override
  {
    for (size_t k = 0; k < view.size(); ++k) {
      const size_t turn = next_++ % view.size();
      if (view.candidate(turn))
        return static_cast<int64_t>(turn);
    }
    return -1;
  }

 private:
  size_t next_ = 0;  // the next instance's turn, counted over the whole set
};

}  // namespace

LLSIM_REGISTER(Router, "round_robin", RoundRobin, "the instances in turn", kRoundRobinParams);

}  // namespace llsim
