// A GPU's measured power against its utilisation, `gpu: {power_table: FILE}`, instead of the
// linear law between idle and tdp (docs/accounting.md, "GPU load"). FILE is CSV:
//
//   utilisation,power_W
//   0,62
//   0.5,240
//   1,395
//
// utilisation from 0 to 1, strictly increasing, with rows at 0 and at 1 (the idle and full-load
// draws); power in watts, one GPU, at least as high at 1 as at 0. Between rows, power is
// interpolated linearly.
#pragma once
#include "sim/core/piecewise_linear.hpp"

#include <string>

namespace llsim {

struct GpuPowerCurve {
  PiecewiseLinear power_W;  // of utilisation, from 0 to 1

  double at(double u) const;  // u clamped to [0, 1]
  double idle_W() const { return power_W.points().front().second; }
  double full_W() const { return power_W.points().back().second; }
};

// Throws ConfigError naming the file and line of what is wrong.
GpuPowerCurve read_gpu_power_table(const std::string& file);

}  // namespace llsim
