// Runs a loaded scenario under SimGrid: builds the platform, starts the services, starts every
// phase when its dependencies are done and its start time is reached, and collects the results
// of the phases and of the services.
#pragma once
#include "sim/accounting/accounting.hpp"
#include "sim/phase/phase_result.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/svc/service_result.hpp"

#include <string>
#include <vector>

namespace llsim {

struct SimulationResult {
  double simulated_time_s = 0;
  std::vector<PhaseResult> phases;
  std::vector<ServiceResult> services;
  Accounting accounting;  // cost and energy (sim/accounting/accounting.hpp)
};

struct SimulationOptions {
  bool progress = false;                  // a progress line on stderr for runs longer than a second
  std::vector<std::string> log_settings;  // --log=CATEGORY:LEVEL
};

// A phase that fails ends the process with exit status 1 (see sim/sg/actors.hpp). Call at most
// once per process (SimGrid allows one engine).
SimulationResult simulate(Scenario& scenario, const SimulationOptions& options);

// The run as the accounting reads it.
FinishedRun finished_run(const Scenario& scenario, const SimulationResult& result);

}  // namespace llsim
