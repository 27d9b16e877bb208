// The runs of `llsim plan`: each point of the search run with every seed as an ordinary
// `llsim run`, into DIR/runs/p<i>_<j>..._s<seed>, as child processes (local_runs,
// sim/study/child_runs.hpp) or as a Slurm job array (sim/study/slurm_plan.hpp); a run whose
// summary.json is there already is kept, so a stopped plan resumes. A point's figures
// are the mean and 95% confidence interval of each metric over its seeds, as sweeps compute them.
#pragma once
#include "sim/study/plan_search.hpp"
#include "sim/study/plan_spec.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace llsim {

struct PlanSetup {
  std::string scenario;
  std::string name;  // the scenario's
  std::vector<PlanAxis> axes;
  std::vector<PlanTarget> targets;
  std::string objective = "run.cost";
  bool maximize         = false;
  std::vector<std::string> sets;
  int64_t seeds = 1, jobs = 1;
  uint64_t first_seed = 1;
  std::string out;
  std::vector<std::string> notes;  // its points' notes to the user (Scenario::notes), each once
};

// A run of a point not made yet: its output directory and its `llsim` arguments.
struct PendingRun {
  std::string dir;
  std::vector<std::string> args;
};
// Makes a point's pending runs (`point` names it: p<i>_<j>...); "" when all were made, else what
// failed first, with its log.
using RunMaker = std::function<std::string(const std::string& point, const std::vector<PendingRun>& runs)>;
// `jobs` child processes at a time, each run's standard error in DIR.log (removed when it succeeds).
RunMaker local_runs(int64_t jobs);

struct MetricFigure {
  double mean = 0, low = 0, high = 0;  // low, high: NaN with one seed
};

struct PlanPoint {
  PointIndex index;
  std::map<std::string, MetricFigure> figures;  // the targets' metrics and the objective
  std::vector<bool> met;                        // per target
  PointScore score;
};

class PlanRuns {
 public:
  PlanRuns(const PlanSetup& setup, RunMaker make);
  // Runs the point's seeds not run yet; the point's figures. Throws SimulationError when a run
  // fails or its summary is unreadable or from another text of the scenario.
  const PlanPoint& evaluate(const PointIndex& index);
  const std::vector<const PlanPoint*>& order() const { return order_; }  // in the order first asked
  size_t runs_made() const { return made_; }
  size_t runs_kept() const { return kept_; }
  std::vector<std::string> overrides(const PointIndex& index) const;

 private:
  std::string point_name(const PointIndex& index) const;
  PlanPoint summarize(const PointIndex& index, const std::vector<std::map<std::string, double>>& runs) const;

  const PlanSetup& setup_;
  RunMaker make_;
  std::string scenario_hash_;
  std::map<PointIndex, PlanPoint> points_;
  std::vector<const PlanPoint*> order_;
  size_t made_ = 0, kept_ = 0;
};

// A point meets a target when its confidence interval lies on the target's side (its mean, with
// one seed).
bool meets_target(const PlanTarget& t, const MetricFigure& f, int64_t seeds);

}  // namespace llsim
