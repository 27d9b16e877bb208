// Starting SimGrid actors for phases. An actor whose body throws SimulationError ends the
// process at once with that error on stderr and exit status 1, before any output is written.
// (Unwinding a half-finished SimGrid simulation from inside an actor is not supported by
// SimGrid 3.32: killing the other actors from there aborts the engine.)
#pragma once
#include <simgrid/s4u/Actor.hpp>

#include <functional>
#include <string>

namespace llsim {

// `label` prefixes the error message, e.g. "phase 'stage'".
simgrid::s4u::ActorPtr start_actor(const std::string& name, simgrid::s4u::Host* host, const std::string& label,
                                   std::function<void()> body);

}  // namespace llsim
