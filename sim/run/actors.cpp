#include "sim/run/actors.hpp"

#include "sim/core/errors.hpp"

#include <cstdio>
#include <cstdlib>

namespace llsim {

simgrid::s4u::ActorPtr start_actor(const std::string& name, simgrid::s4u::Host* host, const std::string& label,
                                   std::function<void()> body)
{
  return simgrid::s4u::Actor::create(name, host, [label, body = std::move(body)] {
    try {
      body();
    } catch (const SimulationError& e) {
      std::fprintf(stderr, "llsim: simulation failed: %s: %s\n", label.c_str(), e.what());
      std::fflush(nullptr);
      std::_Exit(kExitSimulationFailure);
    }
  });
}

}  // namespace llsim
