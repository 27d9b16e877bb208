#include "sim/study/sweep_grid.hpp"

#include <stdexcept>

namespace llsim {

namespace {

std::string trimmed(const std::string& s)
{
  const size_t first = s.find_first_not_of(" \t");
  if (first == std::string::npos)
    return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

}  // namespace

SweepAxis parse_sweep_axis(const std::string& text)
{
  const size_t eq = text.find('=');
  SweepAxis axis;
  axis.path = eq == std::string::npos ? "" : trimmed(text.substr(0, eq));
  if (axis.path.empty())
    throw std::invalid_argument("--grid expects PATH=v1,v2,... (e.g. platform.groups.gpu.count=4,8,16), got '" + text +
                                "'");
  int depth = 0;
  std::string value;
  for (const char c : text.substr(eq + 1)) {
    depth += (c == '[' || c == '{') ? 1 : (c == ']' || c == '}') ? -1 : 0;
    if (c == ',' && depth == 0) {
      axis.values.push_back(trimmed(value));
      value.clear();
    } else {
      value += c;
    }
  }
  axis.values.push_back(trimmed(value));
  if (depth != 0)
    throw std::invalid_argument("--grid " + axis.path + ": unbalanced brackets in '" + text + "'");
  for (const auto& v : axis.values)
    if (v.empty())
      throw std::invalid_argument("--grid " + axis.path + ": an empty value in '" + text + "'");
  return axis;
}

std::vector<SweepPoint> sweep_points(const std::vector<SweepAxis>& axes)
{
  std::vector<SweepPoint> points(1);
  for (const auto& axis : axes) {
    std::vector<SweepPoint> next;
    for (const auto& p : points)
      for (const auto& v : axis.values) {
        SweepPoint q = p;
        q.values.push_back(v);
        q.overrides.push_back(axis.path + "=" + v);
        next.push_back(std::move(q));
      }
    points = std::move(next);
  }
  return points;
}

}  // namespace llsim
