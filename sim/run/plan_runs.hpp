// The runs of `llsim plan`: each point of the search run with every seed as an ordinary
// `llsim run` (sim/run/child_runs.hpp), `jobs` at a time, into DIR/runs/p<i>_<j>..._s<seed>; a
// run whose summary.json is there already is kept, so a stopped plan resumes. A point's figures
// are the mean and 95% confidence interval of each metric over its seeds, as sweeps compute them.
#pragma once
#include "sim/run/plan_search.hpp"
#include "sim/run/plan_spec.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace llsim {

struct PlanSetup {
  std::string scenario;
  std::vector<PlanAxis> axes;
  std::vector<PlanTarget> targets;
  std::string objective = "run.cost";
  bool maximize         = false;
  std::vector<std::string> sets;
  int64_t seeds = 1, jobs = 1;
  uint64_t first_seed = 1;
  std::string out;
};

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
  explicit PlanRuns(const PlanSetup& setup);
  // Runs the point's seeds not run yet; the point's figures. Throws SimulationError when a run
  // fails or its summary is unreadable or from another text of the scenario.
  const PlanPoint& evaluate(const PointIndex& index);
  const std::vector<const PlanPoint*>& order() const { return order_; }  // in the order first asked
  size_t runs_made() const { return made_; }
  size_t runs_kept() const { return kept_; }
  std::vector<std::string> overrides(const PointIndex& index) const;

 private:
  std::string run_dir(const PointIndex& index, uint64_t seed) const;
  PlanPoint summarize(const PointIndex& index, const std::vector<std::map<std::string, double>>& runs) const;

  const PlanSetup& setup_;
  std::string scenario_hash_;
  std::map<PointIndex, PlanPoint> points_;
  std::vector<const PlanPoint*> order_;
  size_t made_ = 0, kept_ = 0;
};

// A point meets a target when its confidence interval lies on the target's side (its mean, with
// one seed).
bool meets_target(const PlanTarget& t, const MetricFigure& f, int64_t seeds);

}  // namespace llsim
