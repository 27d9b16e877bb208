// What a sweep (llsim sweep) will run, and what of it an earlier sweep into the same directory
// has run already. Every point is loaded (and so checked) before anything runs. The directory
// records the sweep that made it (DIR/sweep.json: the scenario file, a hash of its text, the
// grid and the --set overrides), so its runs are reused only by the same sweep; a run whose
// DIR/runs/p<point>_s<seed>/summary.json exists is kept, not run again.
#pragma once
#include "sim/study/slurm_sweep.hpp"
#include "sim/study/sweep_grid.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace llsim {

// A sweep as the command line asked for it, checked.
struct SweepRequest {
  std::string scenario;
  std::vector<std::string> grid;  // the --grid texts as given (part of the sweep's identity)
  std::vector<SweepAxis> axes;    // parsed from them
  std::vector<std::string> sets;  // --set for every point
  int64_t seeds = 1, jobs = 1;
  std::string out;  // "" = out/<scenario name>_sweep
  bool quiet = false, slurm = false, collect = false;
  SlurmOptions slurm_options;
  std::vector<std::string> collector;  // the `llsim sweep ... --collect` arguments of the Slurm collector job
  std::vector<std::string> command;    // the command line that reproduces the sweep (for report.md)
};

// One run: a point of the grid with one seed.
struct SweepJob {
  size_t point  = 0;
  uint64_t seed = 0;
  std::string dir;  // DIR/runs/p<point>_s<seed>
};

struct SweepPlan {
  std::vector<SweepPoint> points;
  std::string name;  // the scenario's
  uint64_t first_seed = 1;
  std::string out;
  std::string scenario_hash;       // of the scenario text; every run records the one it read
  std::string created;             // the outermost directory of `out` this sweep creates ("" = none)
  std::vector<SweepJob> jobs;      // point then seed order
  std::vector<size_t> missing;     // the jobs with no results yet
  std::vector<std::string> notes;  // the points' notes to the user (Scenario::notes), each once
};

// Loads every point, checks the output directory (and with --slurm, the submission) and that
// it holds no other sweep, and finds the runs already done. With --collect, throws
// SimulationError when runs are missing. Then creates DIR/runs and writes DIR/sweep.json.
// Throws ConfigError for a bad scenario, point or directory.
SweepPlan plan_sweep(const SweepRequest& request);

// Whether `job` has its results (its summary.json) already.
bool has_result(const SweepJob& job);

// The text of a file of the sweep's directory ("" when it cannot be read).
std::string read_text(const std::string& path);

// The `llsim run` arguments of job `j`.
std::vector<std::string> run_arguments(const SweepRequest& request, const SweepPlan& plan, size_t j);

}  // namespace llsim
