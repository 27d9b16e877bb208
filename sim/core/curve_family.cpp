#include "sim/core/curve_family.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

CurveFamily::CurveFamily(std::vector<std::pair<double, PiecewiseLinear>> curves)
    : curves_(std::move(curves))
{}

double CurveFamily::at(double key, double x) const
{
  // Plain copies: a lambda may not capture a structured binding in C++17 (clang refuses it).
  const double k_first = curves_.front().first, k_last = curves_.back().first;
  const PiecewiseLinear &first = curves_.front().second, &last = curves_.back().second;
  if (key <= k_first)
    return first.at(x);
  if (key >= k_last) {
    if (curves_.size() == 1 || key == k_last)
      return last.at(x);
    const auto half    = std::min_element(curves_.begin(), curves_.end() - 1, [&](const auto& a, const auto& b) {
      return std::abs(a.first - k_last / 2) < std::abs(b.first - k_last / 2);
    });
    const double y     = last.at(x);
    const double slope = std::max(0.0, (y - half->second.at(x)) / (k_last - half->first));
    return y + slope * (key - k_last);
  }
  const auto above =
      std::lower_bound(curves_.begin(), curves_.end(), key, [](const auto& c, double k) { return c.first < k; });
  const double k1 = above->first, y1 = above->second.at(x);
  if (key == k1)
    return y1;
  const double k0 = (above - 1)->first, y0 = (above - 1)->second.at(x);
  return std::max(0.0, y0 + (y1 - y0) * (key - k0) / (k1 - k0));
}

}  // namespace llsim
