#include "sim/core/units.hpp"

#include "sim/core/text.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <vector>

namespace llsim {

namespace {

using UnitTable = std::map<std::string, double, std::less<>>;

UnitTable make_size_units()
{
  UnitTable t{{"B", 1}};
  const char* prefixes = "KMGTPE";
  double dec = 1, bin = 1;
  for (int i = 0; prefixes[i] != '\0'; ++i) {
    dec *= 1e3;
    bin *= 1024;
    t[std::string(1, prefixes[i]) + "B"]  = dec;
    t[std::string(1, prefixes[i]) + "iB"] = bin;
  }
  t["kB"] = 1e3;  // the SI spelling of KB
  return t;
}

UnitTable make_rate_units()
{
  UnitTable t;
  const std::pair<const char*, double> per[]   = {{"/s", 1}, {"/min", 1.0 / 60}, {"/h", 1.0 / 3600}};
  const std::pair<const char*, double> scale[] = {{"", 1}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}};
  for (const auto& [unit, factor] : per)
    for (const auto& [prefix, multiplier] : scale)
      t[std::string(prefix) + unit] = factor * multiplier;
  return t;
}

UnitTable make_bandwidth_units()
{
  UnitTable t;
  for (const auto& [unit, factor] : make_size_units())
    t[unit + "ps"] = factor;
  t["bps"]  = 1.0 / 8;
  t["Kbps"] = 1e3 / 8;
  t["kbps"] = 1e3 / 8;
  t["Mbps"] = 1e6 / 8;
  t["Gbps"] = 1e9 / 8;
  t["Tbps"] = 1e12 / 8;
  return t;
}

const UnitTable& units_of(Dimension d)
{
  static const UnitTable size      = make_size_units();
  static const UnitTable bandwidth = make_bandwidth_units();
  static const UnitTable duration{{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1},
                                  {"min", 60},  {"h", 3600},  {"d", 86400}, {"y", 365 * 86400.0}};
  static const UnitTable rate = make_rate_units();
  static const UnitTable compute{{"Flops", 1},     {"KFlops", 1e3},  {"MFlops", 1e6}, {"GFlops", 1e9},
                                 {"TFlops", 1e12}, {"PFlops", 1e15}, {"EFlops", 1e18}};
  static const UnitTable power{{"W", 1}, {"kW", 1e3}, {"MW", 1e6}};
  static const UnitTable count{{"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}};
  static const UnitTable none;
  switch (d) {
  case Dimension::Size:
    return size;
  case Dimension::Bandwidth:
    return bandwidth;
  case Dimension::Duration:
    return duration;
  case Dimension::Rate:
    return rate;
  case Dimension::Compute:
    return compute;
  case Dimension::Power:
    return power;
  case Dimension::Count:
    return count;
  case Dimension::Number:
    return none;
  }
  return none;
}

std::vector<std::string> unit_names(const UnitTable& t)
{
  std::vector<std::string> names;
  for (const auto& entry : t)
    names.push_back(entry.first);
  return names;
}

}  // namespace

std::string format_quantity(double value, Dimension d, int digits)
{
  switch (d) {
  case Dimension::Size:
    return with_si_prefix(value, "B", digits);
  case Dimension::Bandwidth:
    return with_si_prefix(value, "B/s", digits);
  case Dimension::Duration:
    return readable_duration(value, std::max(digits, 4));
  case Dimension::Rate:
    return with_si_prefix(value, "/s", digits);
  case Dimension::Compute:
    return with_si_prefix(value, "Flops", digits);
  case Dimension::Power:
    return with_si_prefix(value, "W", digits);
  case Dimension::Count:
  case Dimension::Number:
    break;
  }
  return format_number(value);
}

const char* dimension_name(Dimension d)
{
  switch (d) {
  case Dimension::Size:
    return "size";
  case Dimension::Bandwidth:
    return "bandwidth";
  case Dimension::Duration:
    return "duration";
  case Dimension::Rate:
    return "rate";
  case Dimension::Compute:
    return "compute";
  case Dimension::Power:
    return "power";
  case Dimension::Count:
    return "count";
  case Dimension::Number:
    return "number";
  }
  return "?";
}

const char* dimension_example(Dimension d)
{
  switch (d) {
  case Dimension::Size:
    return "10GB or 64MiB";
  case Dimension::Bandwidth:
    return "2GBps or 100Gbps";
  case Dimension::Duration:
    return "30s or 10min";
  case Dimension::Rate:
    return "100/s";
  case Dimension::Compute:
    return "100TFlops";
  case Dimension::Power:
    return "700W or 1.2kW";
  case Dimension::Count:
    return "64 or 10k";
  case Dimension::Number:
    return "0.5";
  }
  return "?";
}

double parse_quantity(std::string_view raw, Dimension d)
{
  const std::string text     = trim(raw);
  const std::string expected = std::string("expected a ") + dimension_name(d) + " such as " + dimension_example(d);
  if (text.empty())
    throw std::invalid_argument("empty value (" + expected + ")");

  errno         = 0;
  char* end     = nullptr;
  double number = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || errno == ERANGE || !std::isfinite(number))
    throw std::invalid_argument("'" + text + "' is not a number (" + expected + ")");
  // strtod accepts "inf", "nan" and hex; only plain decimal numbers are scenario values.
  if (text.find_first_of("xXnN") < static_cast<size_t>(end - text.c_str()))
    throw std::invalid_argument("'" + text + "' is not a decimal number (" + expected + ")");

  const std::string unit = trim(std::string_view(end));
  const UnitTable& table = units_of(d);
  if (unit.empty()) {
    if (d == Dimension::Count || d == Dimension::Number || number == 0)
      return number;
    throw std::invalid_argument("'" + text + "' has no unit (" + expected + ")");
  }
  const auto it = table.find(unit);
  if (it == table.end()) {
    if (table.empty())
      throw std::invalid_argument("'" + text + "' has a unit but a plain number is expected");
    throw std::invalid_argument("unknown unit '" + unit + "' (" + expected +
                                "; units: " + join(unit_names(table), " ") + ")");
  }
  return number * it->second;
}

}  // namespace llsim
