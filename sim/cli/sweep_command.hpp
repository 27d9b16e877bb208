// `llsim sweep SCENARIO --grid PATH=v1,v2,... [--grid ...] [--seeds N] [--jobs J] [--out DIR]
// [--set PATH=VALUE]... [--quiet]`: every point of the grid's cross product, N seeds each (the
// scenario's seed, then the next ones), J runs at a time, each an `llsim run` into
// DIR/runs/p<point>_s<seed>/. Writes DIR/results.csv, DIR/summary.csv (sim/run/sweep_table.hpp)
// and DIR/wall_times.csv (wall-clock seconds per run, kept apart so that the same sweep writes
// the same results). A run already in DIR (its summary.json exists) is not run again, so an
// interrupted sweep resumes. Every point is loaded and checked before any runs.
#pragma once
#include <string>
#include <vector>

namespace llsim {

// args[0] is "sweep". Returns the exit status; throws std::invalid_argument for a bad command
// line (the caller prints the usage) and ConfigError for a bad scenario or point.
int sweep_command(const std::vector<std::string>& args);

}  // namespace llsim
