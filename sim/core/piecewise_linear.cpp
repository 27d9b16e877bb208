#include "sim/core/piecewise_linear.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

PiecewiseLinear::PiecewiseLinear(std::vector<std::pair<double, double>> points, Beyond beyond)
    : points_(std::move(points))
    , beyond_(beyond)
{
  if (beyond_ != Beyond::Chord || points_.size() < 2)
    return;
  // Plain copies: a lambda may not capture a structured binding in C++17 (clang refuses it).
  const double x1 = points_.back().first, y1 = points_.back().second;
  const auto half = std::min_element(points_.begin(), points_.end() - 1, [x1](const auto& a, const auto& b) {
    return std::abs(a.first - x1 / 2) < std::abs(b.first - x1 / 2);
  });
  chord_slope_    = std::max(0.0, (y1 - half->second) / (x1 - half->first));
}

double PiecewiseLinear::at(double x) const
{
  if (points_.size() == 1)
    return points_.front().second;
  if (beyond_ == Beyond::Chord) {
    if (x <= points_.front().first)
      return points_.front().second;
    if (x >= points_.back().first)
      return points_.back().second + chord_slope_ * (x - points_.back().first);
  }
  // The segment whose upper end is the first point at or beyond x (the last segment beyond).
  const auto above     = std::lower_bound(points_.begin() + 1, points_.end() - 1, x,
                                          [](const std::pair<double, double>& p, double v) { return p.first < v; });
  const auto& [x0, y0] = *(above - 1);
  const auto& [x1, y1] = *above;
  if (x == x1)  // exactly a measured point, without rounding
    return y1;
  return std::max(0.0, y0 + (y1 - y0) * (x - x0) / (x1 - x0));
}

}  // namespace llsim
