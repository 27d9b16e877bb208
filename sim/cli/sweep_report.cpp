#include "sim/cli/sweep_report.hpp"

#include "sim/cli/run_report.hpp"
#include "sim/cli/summary_table.hpp"
#include "sim/core/text.hpp"

#include <cmath>
#include <map>
#include <set>

namespace llsim {

namespace {

const char* const kCapacityHeading = "## Capacity";

std::string cell(const MetricSummary& m)
{
  const std::string name = m.metric.substr(m.metric.rfind('.') + 1);
  std::string out        = readable(name, m.mean);
  if (!std::isnan(m.ci95_low))
    out += " (" + readable(name, m.ci95_low) + " – " + readable(name, m.ci95_high) + ")";
  return out;
}

using PointSummaries = std::vector<std::map<std::string, MetricSummary>>;  // per point, by metric

// Metrics whose mean, as the report writes it, is not the same at every point; with one point,
// every phase metric (and simulated_time_s), services left out (results.csv has them).
std::vector<std::string> compared_metrics(const SweepTable& table, const PointSummaries& by_point)
{
  std::map<std::string, std::set<std::string>> means;
  for (const auto& point : by_point)
    for (const auto& [name, m] : point)
      means[name].insert(readable(name, m.mean));
  std::vector<std::string> out;
  for (const auto& name : table.metric_names()) {
    const bool service = name.rfind("services.", 0) == 0;
    if (by_point.size() == 1 ? !service : means[name].size() > 1)
      out.push_back(name);
  }
  return out;
}

}  // namespace

std::string sweep_report(const SweepDescription& sweep, const SweepTable& table, const std::string& previous)
{
  const auto& axes   = table.axes();
  const auto& points = table.points();
  std::string out    = "# Sweep of " + sweep.scenario_name + "\n\n";
  out += "- Scenario: `" + sweep.scenario_file + "`\n";
  out += "- Seeds: " + std::to_string(sweep.seeds) + " per point (" + std::to_string(sweep.first_seed) + " to " +
         std::to_string(sweep.first_seed + static_cast<uint64_t>(sweep.seeds) - 1) + "), " +
         std::to_string(points.size()) + (points.size() == 1 ? " point" : " points") + "\n";
  for (const auto& a : axes) {
    out += "- Grid `" + a.path + "`:";
    for (const auto& v : a.values)
      out += " `" + v + "`";
    out += "\n";
  }
  for (const auto& s : sweep.sets)
    out += "- Every point: `" + s + "`\n";
  out += "- Reproduce: " + markdown_command(sweep.command) + "\n\n";
  out += notes_section(sweep.notes);

  out += "## Results\n\nMean over the seeds";
  out += sweep.seeds > 1 ? ", with the 95% confidence interval in parentheses" : "";
  out += points.size() > 1 ? "; only the metrics that differ between points (every metric is in `summary.csv`)"
                           : " (service totals are in `summary.csv`)";
  out += ".\n\n| metric |";
  for (size_t p = 0; p < points.size(); ++p) {
    std::string label;
    for (size_t i = 0; i < axes.size(); ++i)
      label += (i ? ", " : "") + axes[i].path.substr(axes[i].path.rfind('.') + 1) + "=" + points[p].values[i];
    out += " " + (label.empty() ? "value" : label) + " |";
  }
  out += "\n|---|";
  for (size_t p = 0; p < points.size(); ++p)
    out += "---|";
  out += "\n";
  PointSummaries by_point(points.size());
  for (size_t p = 0; p < points.size(); ++p)
    for (const MetricSummary& m : table.point_summary(p))
      by_point[p][m.metric] = m;
  for (const auto& name : compared_metrics(table, by_point)) {
    out += "| `" + name + "` |";
    for (size_t p = 0; p < points.size(); ++p) {
      const auto it = by_point[p].find(name);
      out += " " + (it == by_point[p].end() ? std::string("—") : cell(it->second)) + " |";
    }
    out += "\n";
  }

  const size_t kept = previous.find(std::string("\n") + kCapacityHeading);
  if (kept != std::string::npos)
    return out + previous.substr(kept);
  return out + "\n" + kCapacityHeading + "\n\n`analysis/capacity.py DIR --x PATH --metric M --target \"<= V\"` " +
         "writes the smallest swept value that meets a target here.\n";
}

std::string sweep_progress_line(const SweepProgress& p)
{
  std::string line = "[" + std::to_string(p.points_done) + "/" + std::to_string(p.points) + "]";
  for (const auto& setting : p.point->overrides)  // path=value, one per axis
    line += " " + setting;
  line += ": " + std::to_string(p.seeds) + (p.seeds == 1 ? " seed" : " seeds") + " done; ";
  if (p.all_kept)
    return line + "kept from an earlier run\n";
  return line + readable_duration(p.elapsed_s) + " elapsed, about " + readable_duration(p.left_s) + " left\n";
}

}  // namespace llsim
