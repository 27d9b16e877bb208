#include "sim/study/sweep_table.hpp"

#include "sim/core/text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace llsim {

namespace {

// Shortest text that reads back exactly; an empty cell for no value.
std::string number(double v)
{
  return std::isnan(v) ? std::string() : format_number(v);
}

void add_numbers(const nlohmann::ordered_json& object, const std::string& prefix,
                 std::vector<std::pair<std::string, double>>& out)
{
  for (const auto& [key, value] : object.items())
    if (value.is_number())
      out.emplace_back(prefix + key, value.get<double>());
}

// A CSV cell: swept values are YAML and may hold commas or quotes.
std::string cell(const std::string& text)
{
  if (text.find_first_of(",\"\n") == std::string::npos)
    return text;
  std::string quoted = "\"";
  for (const char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

RunSummary read_run_summary(const std::string& summary_json)
{
  const nlohmann::ordered_json s = nlohmann::ordered_json::parse(summary_json, nullptr, false);
  if (s.is_discarded() || !s.is_object() || !s.contains("phases") || !s["phases"].is_object())
    throw std::runtime_error("not an llsim summary.json");
  RunSummary out;
  if (s.contains("simulated_time_s") && s["simulated_time_s"].is_number())
    out.metrics.emplace_back("simulated_time_s", s["simulated_time_s"].get<double>());
  for (const auto& [phase, metrics] : s["phases"].items())
    add_numbers(metrics, phase + ".", out.metrics);
  if (s.contains("services") && s["services"].is_object())
    for (const auto& [service, metrics] : s["services"].items())
      add_numbers(metrics, "services." + service + ".", out.metrics);
  if (s.contains("run") && s["run"].is_object())
    add_numbers(s["run"], "run.", out.metrics);
  if (s.contains("scenario_fnv1a") && s["scenario_fnv1a"].is_string())
    out.scenario_hash = s["scenario_fnv1a"].get<std::string>();
  out.wall_time_s = s.contains("wall_time_s") && s["wall_time_s"].is_number() ? s["wall_time_s"].get<double>() : NAN;
  return out;
}

double t975(int64_t dof)
{
  static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof <= 30)
    return table[std::max<int64_t>(dof, 1) - 1];
  // Beyond 30: the normal quantile with Cornish-Fisher's first correction (error < 0.001).
  const double z = 1.959964, d = static_cast<double>(dof);
  return z + (z * z * z + z) / (4 * d);
}

SweepTable::SweepTable(std::vector<SweepAxis> axes, std::vector<SweepPoint> points)
    : axes_(std::move(axes))
    , points_(std::move(points))
{}

void SweepTable::add(SweepRun run)
{
  const auto at = std::upper_bound(runs_.begin(), runs_.end(), run, [](const SweepRun& a, const SweepRun& b) {
    return std::tie(a.point, a.seed) < std::tie(b.point, b.seed);
  });
  runs_.insert(at, std::move(run));
}

std::vector<std::string> SweepTable::metric_names() const
{
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const auto& run : runs_)
    for (const auto& m : run.metrics)
      if (seen.insert(m.first).second)
        names.push_back(m.first);
  return names;
}

std::string SweepTable::results_csv() const
{
  const auto names = metric_names();
  std::string out  = "point,seed";
  for (const auto& a : axes_)
    out += "," + cell(a.path);
  for (const auto& n : names)
    out += "," + cell(n);
  out += "\n";
  for (const auto& run : runs_) {
    const std::map<std::string, double> values(run.metrics.begin(), run.metrics.end());
    out += std::to_string(run.point) + "," + std::to_string(run.seed);
    for (const auto& v : points_[run.point].values)
      out += "," + cell(v);
    for (const auto& n : names) {
      const auto it = values.find(n);
      out += "," + (it == values.end() ? std::string() : number(it->second));
    }
    out += "\n";
  }
  return out;
}

std::vector<MetricSummary> SweepTable::point_summary(size_t p) const
{
  std::map<std::string, std::vector<double>> samples;
  for (const auto& run : runs_)
    if (run.point == p)
      for (const auto& [name, v] : run.metrics)
        samples[name].push_back(v);
  std::vector<MetricSummary> out;
  for (const auto& name : metric_names()) {
    const auto it = samples.find(name);
    if (it == samples.end())
      continue;
    out.push_back(summarize_samples(name, it->second));
  }
  return out;
}

MetricSummary summarize_samples(const std::string& metric, const std::vector<double>& xs)
{
  const double n = static_cast<double>(xs.size());
  double mean    = xs.empty() ? NAN : 0;
  for (double x : xs)
    mean += x / n;
  double half = NAN;
  if (xs.size() > 1) {
    double ss = 0;
    for (double x : xs)
      ss += (x - mean) * (x - mean);
    half = t975(static_cast<int64_t>(xs.size()) - 1) * std::sqrt(ss / (n - 1) / n);
  }
  return {metric, xs.size(), mean, mean - half, mean + half};
}

std::string SweepTable::summary_csv() const
{
  std::string out = "point";
  for (const auto& a : axes_)
    out += "," + cell(a.path);
  out += ",metric,n,mean,ci95_low,ci95_high\n";
  for (size_t p = 0; p < points_.size(); ++p)
    for (const MetricSummary& m : point_summary(p)) {
      out += std::to_string(p);
      for (const auto& v : points_[p].values)
        out += "," + cell(v);
      out += "," + cell(m.metric) + "," + std::to_string(m.n) + "," + number(m.mean) + "," + number(m.ci95_low) + "," +
             number(m.ci95_high) + "\n";
    }
  return out;
}

std::string wall_times_csv(const std::vector<SweepJob>& jobs, const std::vector<double>& wall_s,
                           const std::vector<bool>& resumed)
{
  std::string out = "point,seed,wall_time_s,resumed\n";
  for (size_t j = 0; j < jobs.size(); ++j)
    out += std::to_string(jobs[j].point) + "," + std::to_string(jobs[j].seed) + "," + number(wall_s[j]) + "," +
           (resumed[j] ? "1" : "0") + "\n";
  return out;
}

}  // namespace llsim
