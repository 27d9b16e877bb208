#include "sim/platform/gpu_power_curve.hpp"

#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace llsim {

double GpuPowerCurve::at(double u) const
{
  return power_W.at(std::clamp(u, 0.0, 1.0));
}

namespace {

constexpr double kMaxGpuPower_W = 1e6;

}  // namespace

GpuPowerCurve read_gpu_power_table(const std::string& file)
{
  const CsvTable t   = read_csv_file(file);
  const size_t u_col = t.column("utilisation"), p_col = t.column("power_W");
  const auto at_line = [&t](size_t row) { return t.file + ":" + std::to_string(t.line_of_row[row]) + ": "; };
  if (t.rows.size() < 2)
    throw ConfigError(file + ": expected rows at utilisation 0 and 1 at least (utilisation,power_W), got " +
                      std::to_string(t.rows.size()));
  std::vector<std::pair<double, double>> points;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const double u = t.number(r, u_col), p = t.number(r, p_col);
    if (u < 0 || u > 1)
      throw ConfigError(at_line(r) + "utilisation " + t.rows[r][u_col] + " is outside [0, 1]");
    if (!points.empty() && u <= points.back().first)
      throw ConfigError(at_line(r) + "utilisation " + t.rows[r][u_col] + " does not increase on the row before");
    if (p < 0)
      throw ConfigError(at_line(r) + "power_W " + t.rows[r][p_col] + " is negative");
    if (p > kMaxGpuPower_W)
      throw ConfigError(at_line(r) + "power_W " + t.rows[r][p_col] + " is above 1e6 W: not one GPU's draw");
    // A draw below the idle row's would make the load (P(u) - idle) / (full - idle) negative.
    if (!points.empty() && p < points.back().second)
      throw ConfigError(at_line(r) + "power_W " + t.rows[r][p_col] + " falls below the row before's (" +
                        t.rows[r - 1][p_col] + "): the draw must not fall as utilisation rises");
    points.emplace_back(u, p);
  }
  if (points.front().first != 0)
    throw ConfigError(at_line(0) + "the first row must be at utilisation 0 (the idle draw)");
  if (points.back().first != 1)
    throw ConfigError(at_line(t.rows.size() - 1) + "the last row must be at utilisation 1 (the full-load draw)");
  if (!(points.back().second > points.front().second))
    throw ConfigError(at_line(t.rows.size() - 1) + "the power at utilisation 1 must be above the idle draw (" +
                      t.rows.front()[p_col] + " W at 0)");
  return {PiecewiseLinear(std::move(points))};
}

}  // namespace llsim
