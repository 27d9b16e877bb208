#include "sim/study/plan_spec.hpp"

#include "sim/core/metrics.hpp"
#include "sim/core/text.hpp"
#include "sim/study/sweep_grid.hpp"
#include "sim/svc/service.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace llsim {

namespace {

constexpr size_t kMaxAxisValues = 100000;

// "10min" -> (10, "min"); throws when there is no number.
std::pair<double, std::string> number_and_unit(const std::string& text, const std::string& what)
{
  const std::string t = trim(text);
  char* end           = nullptr;
  const double v      = std::strtod(t.c_str(), &end);
  if (end == t.c_str() || !std::isfinite(v))
    throw std::invalid_argument(what + ": expected a number, got '" + t + "'");
  return {v, trim(std::string(end))};
}

// 12 significant digits: 0.1 + 2 x 0.1 is 0.3, not 0.30000000000000004.
std::string tidy(double v)
{
  char text[32];
  std::snprintf(text, sizeof text, "%.12g", v);
  return text;
}

// LO..HI (integers, step 1) or LO..HI:STEP.
std::vector<std::string> range_values(const std::string& spec, const std::string& what)
{
  const size_t dots         = spec.find("..");
  const size_t colon        = spec.find(':', dots);
  const auto [lo, lo_unit]  = number_and_unit(spec.substr(0, dots), what);
  const std::string hi_text = spec.substr(dots + 2, colon == std::string::npos ? std::string::npos : colon - dots - 2);
  const auto [hi, hi_unit]  = number_and_unit(hi_text, what);
  double step               = 1;
  std::string step_unit     = lo_unit;
  if (colon != std::string::npos)
    std::tie(step, step_unit) = number_and_unit(spec.substr(colon + 1), what);
  else if (lo != std::floor(lo) || hi != std::floor(hi))
    throw std::invalid_argument(what + ": a range without :STEP takes whole numbers, got '" + spec + "'");
  if (lo_unit != hi_unit || step_unit != lo_unit)
    throw std::invalid_argument(what + ": LO, HI and STEP take the same unit, got '" + spec + "'");
  if (!(step > 0) || hi < lo)
    throw std::invalid_argument(what + ": expected LO <= HI and STEP > 0, got '" + spec + "'");
  const double count = std::floor((hi - lo) / step + 1e-9) + 1;
  if (count > static_cast<double>(kMaxAxisValues))
    throw std::invalid_argument(what + ": " + format_number(count) + " values; at most " +
                                std::to_string(kMaxAxisValues));
  std::vector<std::string> values;
  for (double k = 0; k < count; ++k)
    values.push_back(tidy(lo + k * step) + lo_unit);
  return values;
}

}  // namespace

PlanAxis parse_plan_axis(const std::string& text, AxisShape shape, const std::string& option)
{
  const size_t eq = text.find('=');
  PlanAxis axis;
  axis.shape = shape;
  axis.path  = eq == std::string::npos ? "" : trim(text.substr(0, eq));
  if (axis.path.empty())
    throw std::invalid_argument(option +
                                " expects PATH=LO..HI, PATH=LO..HI:STEP or PATH=V1,V2,... (e.g. "
                                "phases.chat.system.instances=1..16), got '" +
                                text + "'");
  const std::string spec = trim(text.substr(eq + 1));
  const std::string what = option + " " + axis.path;
  if (spec.find("..") != std::string::npos && spec.find_first_of(",[{") == std::string::npos) {
    if (std::count(spec.begin(), spec.end(), ':') > 1)
      throw std::invalid_argument(what + ": expected LO..HI:STEP with one ':', got '" + spec + "'");
    axis.values = range_values(spec, what);
  } else {
    try {
      axis.values = parse_sweep_axis(axis.path + "=" + spec).values;
    } catch (const std::invalid_argument& e) {
      std::string message = e.what();  // the sweep's parser names its own option
      if (message.rfind("--grid", 0) == 0)
        message = option + message.substr(6);
      throw std::invalid_argument(message);
    }
  }
  for (size_t i = 0; i < axis.values.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (axis.values[i] == axis.values[j])
        throw std::invalid_argument(what + ": the value '" + axis.values[i] + "' is given twice");
  return axis;
}

PlanTarget parse_plan_target(const std::string& text)
{
  for (const char* reversed : {"=>", "=<", "=="})
    if (text.find(reversed) != std::string::npos)
      throw std::invalid_argument("--target '" + text + "': the comparison is one of >=, <=, > or < (got '" + reversed +
                                  "')");
  PlanTarget t;
  t.text                                                           = text;
  static const std::vector<std::pair<std::string, Comparison>> ops = {
      {">=", Comparison::AtLeast}, {"<=", Comparison::AtMost}, {">", Comparison::Above}, {"<", Comparison::Below}};
  for (const auto& [symbol, op] : ops) {
    const size_t at = text.find(symbol);
    if (at == std::string::npos)
      continue;
    t.metric                = trim(text.substr(0, at));
    t.op                    = op;
    const std::string value = trim(text.substr(at + symbol.size()));
    char* end               = nullptr;
    t.value                 = std::strtod(value.c_str(), &end);
    if (t.metric.empty() || value.empty() || *end != '\0' || !std::isfinite(t.value))
      break;
    return t;
  }
  throw std::invalid_argument("--target expects METRIC>=VALUE (or <=, >, <) with a plain number, e.g. "
                              "'chat.slo_attainment>=0.9', got '" +
                              text + "'");
}

bool satisfies(const PlanTarget& t, double value)
{
  switch (t.op) {
  case Comparison::AtLeast:
    return value >= t.value;
  case Comparison::AtMost:
    return value <= t.value;
  case Comparison::Above:
    return value > t.value;
  case Comparison::Below:
    return value < t.value;
  }
  return false;
}

std::vector<std::string> scenario_metrics(const Scenario& scenario)
{
  std::vector<std::string> out = {"simulated_time_s"};
  for (const PhaseEntry& p : scenario.phases)
    if (const MetricDeclaration* d = MetricCatalog::find(Phase::kInterfaceName, p.kind))
      for (const MetricSpec& m : d->table)
        out.push_back(p.name + "." + m.name);
  for (const Service* s : scenario.services->all())
    if (const MetricDeclaration* d = MetricCatalog::find(Service::kInterfaceName, s->kind()))
      for (const MetricSpec& m : d->table)
        out.push_back("services." + s->name() + "." + m.name);
  out.insert(out.end(), {"run.cost", "run.energy_kwh"});
  return out;
}

}  // namespace llsim
