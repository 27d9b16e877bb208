#include "sim/sg/clock.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

namespace llsim {

double now()
{
  return simgrid::s4u::Engine::get_clock();
}

void sleep_until(double t)
{
  if (t > now())
    simgrid::s4u::this_actor::sleep_until(t);
}

void sleep_for(double duration)
{
  if (duration > 0)
    simgrid::s4u::this_actor::sleep_for(duration);
}

}  // namespace llsim
