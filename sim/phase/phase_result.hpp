// What one phase of a finished run produced: its time span, metrics, tables, what it held of the
// host groups, and the ledgers of its work. The run driver (sim/run/simulation.hpp) fills it in;
// the accounting, the bottleneck verdict and the outputs read it.
#pragma once
#include "sim/core/metrics.hpp"
#include "sim/phase/group_use.hpp"
#include "sim/phase/phase.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace llsim {

struct PhaseResult {
  std::string name;
  std::string kind;
  double start_s = 0;
  double end_s   = 0;
  // The groups it ran on: those it claimed, then those it used without claiming (PhaseLoadContext).
  std::vector<std::string> groups;
  Metrics metrics;
  std::vector<OutputTable> tables;
  std::vector<GroupUse> usage;  // Phase::usage()
  // Seconds its work spent at each resource (sim/sg/wait_ledger.hpp) as the phase counts its time
  // (Phase::time_spent), by resource name, and what they are seconds of.
  std::map<std::string, double> waits;
  std::string waits_of;
  // Requests it turned away, by reason (sim/sg/wait_ledger.hpp).
  std::map<std::string, double> turned_away;
  // Seconds of its background work (sim/sg/wait_ledger.hpp), by resource name.
  std::map<std::string, double> background_waits;
  // Bytes its work delivered between host groups (sim/sg/traffic_ledger.hpp).
  std::map<std::pair<std::string, std::string>, double> traffic;
};

}  // namespace llsim
