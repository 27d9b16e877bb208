// DIR/report.md of a run: what was run (scenario, seed, overrides, the command that reproduces
// it), each phase's span and metrics and each service's totals in readable units, and the plots.
// Wall-clock figures are left out, so the same run writes the same report.
#pragma once
#include "sim/run/simulation.hpp"
#include "sim/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace llsim {

// `plots`: the run's PNG files, relative to its directory (empty without --plot).
std::string run_report(const Scenario& scenario, const LoadOptions& load, const SimulationResult& result,
                       const std::vector<std::string>& plots);

// The PNG files under DIR/plots, as "plots/<name>.png", sorted.
std::vector<std::string> plots_in(const std::string& dir);

// "## Notes" and a bullet per note (figures assumed rather than measured), or "" when none.
std::string notes_section(const std::vector<std::string>& notes);

// "`a b 'c d'`": a command line for Markdown, arguments quoted for a POSIX shell where needed.
std::string markdown_command(const std::vector<std::string>& argv);

}  // namespace llsim
