// Runs a loaded scenario under SimGrid: builds the platform, starts the services, starts every
// phase when its dependencies are done and its start time is reached, and collects the results
// of the phases and of the services.
#pragma once
#include "sim/run/bill.hpp"
#include "sim/scenario/scenario.hpp"

#include <map>
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
  std::vector<GroupUse> usage;  // Phase::usage()
  // Seconds its work spent at each resource (sim/sg/wait_ledger.hpp), by resource name.
  std::map<std::string, double> waits;
  // Requests it turned away, by reason (sim/sg/wait_ledger.hpp).
  std::map<std::string, double> turned_away;
  // Seconds of its background work (sim/sg/wait_ledger.hpp), by resource name.
  std::map<std::string, double> background_waits;
  // Bytes its work delivered between host groups (sim/sg/traffic_ledger.hpp).
  std::map<std::pair<std::string, std::string>, double> traffic;
};

struct ServiceResult {
  std::string name;
  std::string kind;
  Metrics totals;
  CsvWriter table;  // service_<name>.csv
};

struct SimulationResult {
  double simulated_time_s = 0;
  std::vector<PhaseResult> phases;
  std::vector<ServiceResult> services;
  Accounting accounting;  // cost and energy (sim/run/accounting.hpp)
};

struct SimulationOptions {
  bool progress = false;                  // a progress line on stderr for runs longer than a second
  std::vector<std::string> log_settings;  // --log=CATEGORY:LEVEL
};

// A phase that fails ends the process with exit status 1 (see sim/sg/actors.hpp). Call at most
// once per process (SimGrid allows one engine).
SimulationResult simulate(Scenario& scenario, const SimulationOptions& options);

}  // namespace llsim
