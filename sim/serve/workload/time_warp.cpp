#include "sim/serve/workload/time_warp.hpp"

#include <algorithm>

namespace llsim {

TimeWarp::TimeWarp(double base, std::vector<std::pair<double, double>> steps)
    : base_(base)
    , steps_(std::move(steps))
{}

double TimeWarp::at(double trace_s) const
{
  double simulated = 0, from = 0, scale = base_;
  for (const auto& [step_from, step_scale] : steps_) {
    if (step_from >= trace_s)
      break;
    simulated += (step_from - from) / scale;
    from  = step_from;
    scale = step_scale;
  }
  return simulated + (trace_s - from) / scale;
}

}  // namespace llsim
