#include "sim/core/piecewise_linear.hpp"

#include <algorithm>

namespace llsim {

double PiecewiseLinear::at(double x) const
{
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
