// `llsim sweep SCENARIO --grid PATH=v1,v2,... [--grid ...] [--seeds N] [--jobs J] [--out DIR]
// [--set PATH=VALUE]... [--quiet] [--slurm ... | --collect]`: every point of the grid's cross
// product, N seeds each (the scenario's seed, then the next ones), J runs at a time, each an
// `llsim run` into DIR/runs/p<point>_s<seed>/ (sim/study/local_sweep.hpp), or on Slurm
// (sim/study/slurm_sweep.hpp). Writes DIR/results.csv, DIR/summary.csv, DIR/wall_times.csv
// (sim/study/sweep_table.hpp; wall-clock seconds per run kept apart, so that the same sweep
// writes the same results) and DIR/report.md (sweep_report.hpp). A run already in DIR (its
// summary.json exists) is not run again, so an interrupted sweep resumes; every point is loaded
// and checked before any runs (sim/study/sweep_plan.hpp). This file parses the command line.
#pragma once
#include "sim/study/slurm_sweep.hpp"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace llsim {

// As given on the command line; checked by sweep_command.
struct SweepArguments {
  std::string scenario;
  std::vector<std::string> grid, sets;
  std::string seeds = "1", jobs = "1";
  std::string out;
  bool quiet = false, slurm = false, collect = false;
  SlurmOptions slurm_options;
};

// Declares `sweep` and its options on `app`, filling `a` when parsed.
CLI::App* add_sweep_command(CLI::App& app, SweepArguments& a);

// `args`: the command line as typed (for the report). Returns the exit status; throws
// std::invalid_argument for a bad command line and ConfigError for a bad scenario or point.
int sweep_command(const SweepArguments& a, const std::vector<std::string>& args);

}  // namespace llsim
