// A measured curve y(x) read between its points: linear interpolation inside, extrapolation
// from the last (or first) two points outside, never below 0. Profiles and tables of measured
// times are read this way, as profile-based simulators (Vidur, DistServe's) read theirs.
#pragma once
#include <utility>
#include <vector>

namespace llsim {

class PiecewiseLinear {
 public:
  PiecewiseLinear() = default;
  // Points with x strictly increasing, at least two of them (the caller checks and says why).
  explicit PiecewiseLinear(std::vector<std::pair<double, double>> points)
      : points_(std::move(points))
  {}

  double at(double x) const;
  bool empty() const { return points_.empty(); }
  const std::vector<std::pair<double, double>>& points() const { return points_; }

 private:
  std::vector<std::pair<double, double>> points_;
};

}  // namespace llsim
