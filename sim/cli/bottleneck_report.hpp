// What limited each phase (sim/run/bottlenecks.hpp) as people read it: one line under `llsim
// run`'s table and the "What limited each phase" section of report.md.
#pragma once
#include "sim/run/simulation.hpp"

#include <string>

namespace llsim {

std::string bottleneck_line(const SimulationResult& result);     // "" when nothing was charged
std::string bottleneck_section(const SimulationResult& result);  // with its heading

}  // namespace llsim
