// A trace replayed at a rate that changes over its own time: from trace time `from` on, its
// arrivals come `scale` times faster, until the next step (before the first, `base` times). A
// request at trace time t then arrives at the integral of 1/scale from 0 to t. Pure logic.
#pragma once
#include <utility>
#include <vector>

namespace llsim {

class TimeWarp {
 public:
  // `steps`: (from, scale) in increasing `from`, every scale > 0.
  TimeWarp(double base, std::vector<std::pair<double, double>> steps);
  double at(double trace_s) const;  // the simulated time of trace time trace_s >= 0

 private:
  double base_;
  std::vector<std::pair<double, double>> steps_;
};

}  // namespace llsim
