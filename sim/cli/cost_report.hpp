// Cost and energy as people read them: a few lines under `llsim run`'s table, and the "Cost and
// energy" section of report.md with the prices and power figures that produced them.
#pragma once
#include "sim/run/simulation.hpp"

#include <string>

namespace llsim {

// "cost and energy (USD, PUE 1): ..." lines, one per phase and service and one for the run;
// empty when the run cost nothing and drew nothing (no price or power given).
std::string cost_lines(const Scenario& scenario, const SimulationResult& result);
std::string cost_section(const Scenario& scenario, const SimulationResult& result);

}  // namespace llsim
