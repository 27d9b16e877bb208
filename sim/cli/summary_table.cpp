#include "sim/cli/summary_table.hpp"

#include "sim/cli/bottleneck_report.hpp"
#include "sim/cli/cost_report.hpp"

#include "sim/core/text.hpp"
#include "sim/phase/phase.hpp"
#include "sim/svc/service.hpp"

#include <sys/resource.h>

#include <cmath>
#include <cstdio>

namespace llsim {

namespace {

bool ends_with(const std::string& s, const std::string& suffix)
{
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string readable(MetricUnit unit, double value)
{
  if (std::isnan(value))
    return "n/a";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  switch (unit) {
  case MetricUnit::PerSecond:
    return with_si_prefix(value, "/s");
  case MetricUnit::Seconds:
    return readable_duration(value);
  case MetricUnit::BytesPerSecond:
    return with_si_prefix(value, "B/s");
  case MetricUnit::Bytes:
    return with_si_prefix(value, "B");
  case MetricUnit::KilowattHours:
    return readable(MetricUnit::Number, value) + " kWh";
  case MetricUnit::Count:
  case MetricUnit::Ratio:
  case MetricUnit::Flop:
  case MetricUnit::Number:
  case MetricUnit::Currency:
    break;
  }
  char buffer[64];
  if (std::fabs(value) < 1e15 && value == std::round(value))
    std::snprintf(buffer, sizeof buffer, "%.0f", value);  // a count, exactly
  else
    std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return buffer;
}

std::string readable_metric(const std::string& family, const std::string& kind, const std::string& metric, double value)
{
  const MetricDeclaration* declared = MetricCatalog::find(family, kind);
  const MetricSpec* spec            = declared != nullptr ? declared->find(metric) : nullptr;
  return readable(spec != nullptr ? spec->unit : MetricUnit::Number, value);
}

std::string readable(const std::string& metric, double value)
{
  const std::string name = metric.substr(metric.rfind('.') + 1);  // "phases.<phase>.<metric>" too
  for (const MetricDeclaration* declared : MetricCatalog::all())
    if (const MetricSpec* spec = declared->find(name))
      return readable(spec->unit, value);  // a name has one unit in every kind (tests/unit/metrics_test.cpp)
  MetricUnit unit = MetricUnit::Number;
  if (ends_with(metric, "_per_s") || ends_with(metric, "_rps"))
    unit = MetricUnit::PerSecond;
  else if (ends_with(metric, "_s"))
    unit = MetricUnit::Seconds;
  else if (ends_with(metric, "_Bps"))
    unit = MetricUnit::BytesPerSecond;
  else if (metric.find("bytes") != std::string::npos && metric.find("_per_") == std::string::npos)
    unit = MetricUnit::Bytes;
  return readable(unit, value);
}

double peak_memory_B()
{
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024.0;  // Linux reports KiB
}

std::string summary_table(const Scenario& scenario, const SimulationResult& result, double wall_s,
                          const std::string& out_dir)
{
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-16s %-10s %12s %12s  %s\n", "phase", "kind", "start", "end", "metrics");
  out += line;
  for (const auto& p : result.phases) {
    std::string metrics;
    for (const auto& [name, value] : p.metrics)
      metrics +=
          (metrics.empty() ? "" : "  ") + name + "=" + readable_metric(Phase::kInterfaceName, p.kind, name, value);
    std::snprintf(line, sizeof line, "%-16s %-10s %12s %12s  ", p.name.c_str(), p.kind.c_str(),
                  readable_duration(p.start_s).c_str(), readable_duration(p.end_s).c_str());
    out += line + metrics + "\n";
  }
  for (const auto& s : result.services) {
    std::string totals;
    for (const auto& [name, value] : s.totals)
      totals +=
          (totals.empty() ? "" : "  ") + name + "=" + readable_metric(Service::kInterfaceName, s.kind, name, value);
    std::snprintf(line, sizeof line, "%-16s %-10s %12s %12s  ", s.name.c_str(), s.kind.c_str(), "service", "");
    out += line + totals + "\n";
  }
  return out + cost_lines(scenario, result) + bottleneck_line(result) + run_footer(scenario, result, wall_s, out_dir);
}

std::string run_footer(const Scenario& scenario, const SimulationResult& result, double wall_s,
                       const std::string& out_dir)
{
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line,
                "scenario '%s' seed %llu: simulated %s; wall time %.2f s; peak memory %.1f MiB\noutputs: %s/\n",
                scenario.name.c_str(), static_cast<unsigned long long>(scenario.seed),
                readable_duration(result.simulated_time_s).c_str(), wall_s, peak_memory_B() / (1024.0 * 1024.0),
                out_dir.c_str());
  out += line;
  return out;
}

}  // namespace llsim
