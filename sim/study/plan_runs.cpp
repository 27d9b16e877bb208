#include "sim/study/plan_runs.hpp"

#include "sim/core/errors.hpp"
#include "sim/study/child_runs.hpp"
#include "sim/study/sweep_plan.hpp"
#include "sim/study/sweep_table.hpp"

#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>

namespace llsim {

bool meets_target(const PlanTarget& t, const MetricFigure& f, int64_t seeds)
{
  if (!std::isfinite(f.mean))
    return false;
  if (seeds < 2 || !std::isfinite(f.low))
    return satisfies(t, f.mean);
  const bool up = t.op == Comparison::AtLeast || t.op == Comparison::Above;
  return satisfies(t, up ? f.low : f.high);
}

RunMaker local_runs(int64_t jobs)
{
  return [jobs](const std::string&, const std::vector<PendingRun>& runs) {
    ChildRuns children;
    std::string failure;
    const auto reap = [&] {
      const ChildExit e      = children.wait_any();
      const std::string& dir = runs[e.job].dir;
      if (e.status != 0 && failure.empty())
        failure = dir + " failed (exit " + std::to_string(e.status) + "):\n" + read_text(dir + ".log");
      else if (e.status == 0)
        std::filesystem::remove(dir + ".log");
    };
    for (size_t k = 0; k < runs.size(); ++k) {
      children.start(k, runs[k].args, runs[k].dir + ".log");
      while (children.running() >= static_cast<size_t>(jobs))
        reap();
    }
    while (children.running() > 0)
      reap();
    return failure;
  };
}

PlanRuns::PlanRuns(const PlanSetup& setup, RunMaker make)
    : setup_(setup)
    , make_(std::move(make))
    , scenario_hash_(scenario_text_hash(setup.scenario))
{}

std::vector<std::string> PlanRuns::overrides(const PointIndex& index) const
{
  std::vector<std::string> out = setup_.sets;
  for (size_t a = 0; a < index.size(); ++a)
    out.push_back(setup_.axes[a].path + "=" + setup_.axes[a].values[index[a]]);
  return out;
}

std::string PlanRuns::point_name(const PointIndex& index) const
{
  std::string name = "p";
  for (size_t a = 0; a < index.size(); ++a)
    name += (a == 0 ? "" : "_") + std::to_string(index[a]);
  return name;
}

const PlanPoint& PlanRuns::evaluate(const PointIndex& index)
{
  const auto known = points_.find(index);
  if (known != points_.end())
    return known->second;
  const std::string point = point_name(index);
  std::vector<std::string> dirs;
  std::vector<PendingRun> pending;
  for (int64_t k = 0; k < setup_.seeds; ++k) {
    const std::string seed = std::to_string(setup_.first_seed + static_cast<uint64_t>(k));
    dirs.push_back(setup_.out + "/runs/" + point + "_s" + seed);
    if (std::filesystem::exists(dirs.back() + "/summary.json")) {
      kept_ += 1;
      continue;
    }
    PendingRun run{dirs.back(), {"run", setup_.scenario, "--quiet", "--out", dirs.back(), "--seed", seed}};
    for (const std::string& s : overrides(index))
      run.args.insert(run.args.end(), {"--set", s});
    pending.push_back(run);
  }
  const std::string failure = pending.empty() ? "" : make_(point, pending);
  made_ += pending.size();
  if (!failure.empty())
    throw SimulationError("plan stopped: " + failure + "(finished runs are kept in " + setup_.out +
                          "/runs; run the same plan again to resume)");
  std::vector<std::map<std::string, double>> runs;
  for (const std::string& dir : dirs) {
    RunSummary s;
    try {
      s = read_run_summary(read_text(dir + "/summary.json"));
    } catch (const std::runtime_error& e) {
      throw SimulationError(dir + "/summary.json: " + e.what() + "; delete " + dir + " and run the plan again");
    }
    if (s.scenario_hash != scenario_hash_)
      throw SimulationError(dir + " was run on another text of " + setup_.scenario + "; delete " + setup_.out +
                            "/runs and run the plan again");
    runs.emplace_back(s.metrics.begin(), s.metrics.end());
  }
  PlanPoint& p = points_[index] = summarize(index, runs);
  order_.push_back(&p);
  return p;
}

PlanPoint PlanRuns::summarize(const PointIndex& index, const std::vector<std::map<std::string, double>>& runs) const
{
  PlanPoint p;
  p.index           = index;
  const auto figure = [&runs](const std::string& metric) {
    std::vector<double> xs;
    for (const auto& r : runs) {
      const auto it = r.find(metric);
      xs.push_back(it == r.end() ? NAN : it->second);
    }
    const MetricSummary m = summarize_samples(metric, xs);
    return MetricFigure{m.mean, m.ci95_low, m.ci95_high};
  };
  p.score.meets = true;
  for (const PlanTarget& t : setup_.targets) {
    const MetricFigure f = p.figures[t.metric] = figure(t.metric);
    p.met.push_back(meets_target(t, f, setup_.seeds));
    p.score.meets = p.score.meets && p.met.back();
    // How far the figure that decides (the interval's bound, or the mean) is from the target.
    const bool up        = t.op == Comparison::AtLeast || t.op == Comparison::Above;
    const double decides = setup_.seeds >= 2 && std::isfinite(f.low) ? (up ? f.low : f.high) : f.mean;
    const double miss    = std::isfinite(decides) ? (up ? t.value - decides : decides - t.value) : 1e9;
    p.score.shortfall += p.met.back() ? 0 : std::max(miss, 0.0) / std::max(std::fabs(t.value), 1e-12);
  }
  const MetricFigure o = p.figures[setup_.objective] = figure(setup_.objective);
  p.score.objective =
      std::isfinite(o.mean) ? (setup_.maximize ? -o.mean : o.mean) : std::numeric_limits<double>::infinity();
  return p;
}

}  // namespace llsim
