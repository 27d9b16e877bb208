// A measured curve y(x) read between its points: linear interpolation inside, never below 0.
// Outside the measured range, either
//   LastTwo: extrapolated from the last (or first) two points, as the table iteration model
//            documents (its times never decrease, so neither does the extrapolation); or
//   Chord:   a profile's noisy points: below the first point, the first value; beyond the last,
//            the last value plus the slope of the chord over the last half of the range (from the
//            point nearest half the last x to the last point), never negative. Two noisy points
//            at the end of a profile can slope down; the chord over half the range does not
//            send a time to zero beyond it.
// Profiles and tables of measured times are read this way, as profile-based simulators (Vidur,
// DistServe's) read theirs.
#pragma once
#include <utility>
#include <vector>

namespace llsim {

class PiecewiseLinear {
 public:
  enum class Beyond { LastTwo, Chord };

  PiecewiseLinear() = default;
  // Points with x strictly increasing, at least one (the caller checks and says why); one point
  // is a constant.
  explicit PiecewiseLinear(std::vector<std::pair<double, double>> points, Beyond beyond = Beyond::LastTwo);

  double at(double x) const;
  bool empty() const { return points_.empty(); }
  const std::vector<std::pair<double, double>>& points() const { return points_; }

 private:
  std::vector<std::pair<double, double>> points_;
  Beyond beyond_      = Beyond::LastTwo;
  double chord_slope_ = 0;  // Chord: the slope beyond the last point
};

}  // namespace llsim
