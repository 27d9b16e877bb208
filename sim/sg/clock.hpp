// Simulated time, for actor bodies: seconds since the start of the simulation.
#pragma once

namespace llsim {

double now();
void sleep_until(double t);  // returns at once when t is not in the future
void sleep_for(double duration);

}  // namespace llsim
