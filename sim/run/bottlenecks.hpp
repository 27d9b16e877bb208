// What limited each phase: the seconds its work spent at each resource (sim/sg/wait_ledger.hpp)
// as shares of their sum, largest first, and the largest one named.
#pragma once
#include "sim/run/simulation.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace llsim {

// (resource, share of the total), largest first (ties by name); empty when nothing was charged.
std::vector<std::pair<std::string, double>> ranked_shares(const std::map<std::string, double>& seconds);

// What limited a phase: its largest share, or when nothing was charged and it turned requests
// away, "turned away: <the commonest reason>"; empty when neither.
std::string phase_limit(const PhaseResult& p);

// summary.json's `bottlenecks`: per phase, {limit, share, of (what the shares are of: "the
// requests' time"), shares: {resource: share}, seconds:
// {resource: seconds}, turned_away: {reason: requests}, background_seconds: {resource: seconds}},
// largest first (limit null when nothing was charged or turned away; share null when nothing was
// charged). Background seconds are not in the shares.
nlohmann::ordered_json bottlenecks_json(const SimulationResult& result);

}  // namespace llsim
