// The SimGrid engine with llsim's fixed configuration.
#pragma once
#include <simgrid/s4u/Engine.hpp>

#include <memory>

namespace llsim {

// - network model CM02 without TCP factors or cross-traffic: a flow gets its max-min fair share
//   of every link it crosses, so analytic bounds (bytes / tightest bandwidth) hold exactly;
// - small actor stacks and no guard pages, so 100k+ actors fit (DESIGN.md);
// - SimGrid's own logging only for warnings and errors.
std::unique_ptr<simgrid::s4u::Engine> make_engine();

}  // namespace llsim
