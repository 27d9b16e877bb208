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
#include <string>
#include <vector>

namespace llsim {

struct GpuPowerCurve {
  std::vector<double> utilisation, power_W;

  double at(double u) const;  // u clamped to [0, 1]
  double idle_W() const { return power_W.front(); }
  double full_W() const { return power_W.back(); }
};

// Throws ConfigError naming the file and line of what is wrong.
GpuPowerCurve read_gpu_power_table(const std::string& file);

}  // namespace llsim
