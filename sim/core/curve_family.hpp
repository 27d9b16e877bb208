// A measured quantity of two keys, read as a family of curves: at each measured value of the
// first key (a chunk size, a batch size) a PiecewiseLinear over the second (context tokens).
// Between two measured first keys it is linear between their curves; below the first it is the
// first curve; beyond the last it grows along the first key at the slope of the chord from the
// curve nearest half the last key to the last curve, never negative (PiecewiseLinear's Chord rule,
// along the other key). A measured point reads back exactly.
#pragma once
#include "sim/core/piecewise_linear.hpp"

#include <utility>
#include <vector>

namespace llsim {

class CurveFamily {
 public:
  CurveFamily() = default;
  // Curves with their first keys strictly increasing, at least one.
  explicit CurveFamily(std::vector<std::pair<double, PiecewiseLinear>> curves);

  double at(double key, double x) const;
  bool empty() const { return curves_.empty(); }
  double last_key() const { return curves_.back().first; }

 private:
  std::vector<std::pair<double, PiecewiseLinear>> curves_;
};

}  // namespace llsim
