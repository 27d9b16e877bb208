// The tables of a parameter sweep: results.csv (one row per point and seed: the swept values and
// every metric of the run's summary.json) and summary.csv (per point and metric: the number of
// seeds, the mean and a 95% confidence interval, mean -/+ t(0.975, n-1) x s / sqrt(n)). Rows come
// in point then seed order whatever order the runs finished in, so the same sweep writes the
// same bytes. And wall_times.csv, the wall-clock seconds of each run.
#pragma once
#include "sim/study/sweep_grid.hpp"
#include "sim/study/sweep_plan.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace llsim {

// What a sweep takes from a run's summary.json, read in one parse.
struct RunSummary {
  // simulated_time_s, then <phase>.<metric> for every phase and services.<service>.<metric> for
  // every service, in the summary's order, then run.cost and run.energy_kwh.
  std::vector<std::pair<std::string, double>> metrics;
  std::string scenario_hash;  // the hash of the scenario text the run read ("" when absent)
  double wall_time_s = 0;     // NaN when absent
};

// Throws std::runtime_error when `summary_json` is not a summary.
RunSummary read_run_summary(const std::string& summary_json);

// Student's t quantile at 0.975 for `dof` degrees of freedom (dof >= 1).
double t975(int64_t dof);

struct SweepRun {
  size_t point  = 0;
  uint64_t seed = 0;
  std::vector<std::pair<std::string, double>> metrics;
};

// One metric at one point: its seeds' count, mean and 95% confidence interval (NaN for one seed).
struct MetricSummary {
  std::string metric;
  size_t n    = 0;
  double mean = 0, ci95_low = 0, ci95_high = 0;
};

// The count, mean and 95% interval of one metric's samples (NaN bounds for one sample).
MetricSummary summarize_samples(const std::string& metric, const std::vector<double>& xs);

class SweepTable {
 public:
  SweepTable(std::vector<SweepAxis> axes, std::vector<SweepPoint> points);
  void add(SweepRun run);  // any order
  std::string results_csv() const;
  std::string summary_csv() const;
  // The metrics of point `p` that its finished runs have, in metric_names() order.
  std::vector<MetricSummary> point_summary(size_t p) const;
  std::vector<std::string> metric_names() const;  // first appearance, in point and seed order
  const std::vector<SweepAxis>& axes() const { return axes_; }
  const std::vector<SweepPoint>& points() const { return points_; }

 private:
  std::vector<SweepAxis> axes_;
  std::vector<SweepPoint> points_;
  std::vector<SweepRun> runs_;  // point then seed order
};

// wall_times.csv: per job, in the plan's order, its point, seed, wall_time_s (the process's, or
// for a run kept from before its summary.json's; empty when that has none) and resumed (1: kept).
// Kept apart from results.csv, so that the same sweep writes the same results.
std::string wall_times_csv(const std::vector<SweepJob>& jobs, const std::vector<double>& wall_s,
                           const std::vector<bool>& resumed);

}  // namespace llsim
