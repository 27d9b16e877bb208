// Runs a loaded scenario under SimGrid: builds the platform, starts every phase when its
// dependencies are done and its start time is reached, and collects the results.
#pragma once
#include "sim/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace llsim {

struct PhaseResult {
  std::string name;
  std::string kind;
  double start_s = 0;
  double end_s   = 0;
  Metrics metrics;
  std::vector<OutputTable> tables;
};

struct SimulationResult {
  double simulated_time_s = 0;
  std::vector<PhaseResult> phases;
};

struct SimulationOptions {
  bool progress = false;  // a progress line on stderr for runs longer than a second
};

// A phase that fails ends the process with exit status 1 (see actors.hpp). Call at most once
// per process (SimGrid allows one engine).
SimulationResult simulate(Scenario& scenario, const SimulationOptions& options);

}  // namespace llsim
