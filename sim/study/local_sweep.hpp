// A sweep run on this machine: every planned run that has no results yet, as an `llsim run` of
// its own (sim/study/child_runs.hpp), `--jobs` at a time, in point then seed order; the runs kept
// from before are read as they come. A run that fails stops the sweep: no new run starts, the
// running ones finish, and a SimulationError gives the failed run's messages (its DIR/runs/*.log).
// With --collect, nothing runs (every run has its results, sim/study/sweep_plan.hpp).
#pragma once
#include "sim/study/sweep_plan.hpp"
#include "sim/study/sweep_table.hpp"

#include <functional>
#include <string>
#include <vector>

namespace llsim {

// A point whose seeds have all finished.
struct SweepProgress {
  size_t points_done = 0, points = 0;
  const SweepPoint* point = nullptr;
  int64_t seeds           = 1;
  bool all_kept           = false;   // no run of the sweep ran yet: everything so far was kept from before
  double elapsed_s = 0, left_s = 0;  // since the sweep started; an estimate of the time to its end
};

struct SweepOutcome {
  SweepTable table;
  std::vector<double> wall_s;  // per job: the process's, or for a kept run its summary.json's (NaN: absent)
  std::vector<bool> resumed;   // per job: kept from before
};

// Runs the sweep; calls `progress` whenever a point is done (not with --quiet or --collect).
// Throws SimulationError when a run fails, or a run's summary.json is unreadable or was made
// from another text of the scenario.
SweepOutcome run_local_sweep(const SweepRequest& request, const SweepPlan& plan,
                             const std::function<void(const SweepProgress&)>& progress);

}  // namespace llsim
