// The short table `llsim run` prints: each phase's span and metrics in readable units, then the
// run's wall time and peak memory (the figures benchmarks report, kept by `--quiet`).
#pragma once
#include "sim/core/metrics.hpp"
#include "sim/run/simulation.hpp"
#include "sim/scenario/scenario.hpp"

#include <string>

namespace llsim {

std::string summary_table(const Scenario& scenario, const SimulationResult& result, double wall_s,
                          const std::string& out_dir);
// The table's last two lines alone (what `--quiet` keeps): the simulated time, the wall time
// and peak memory, and the output directory.
std::string run_footer(const Scenario& scenario, const SimulationResult& result, double wall_s,
                       const std::string& out_dir);

// "12.5 GB", "3.2 min", "1.2 GB/s", "788 /s" by the unit; a count, ratio, FLOP or other number
// in full when whole, else to 4 significant digits.
std::string readable(MetricUnit unit, double value);
// A metric of a phase kind or service kind (`family` its interface name), by its declared unit
// (sim/core/metrics.hpp); a metric its kind does not declare as a number.
std::string readable_metric(const std::string& family, const std::string& kind, const std::string& metric,
                            double value);
// For the sweep report, whose metrics carry no kind: by the unit some kind declares for the
// metric's name (after its last '.'), else by one guessed from the name (_s, _Bps, _per_s or
// _rps, bytes), as for simulated_time_s.
std::string readable(const std::string& metric, double value);

// Peak resident memory of this process, in bytes.
double peak_memory_B();

}  // namespace llsim
