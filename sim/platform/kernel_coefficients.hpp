// The GPU kernel coefficients of the operators model (sim/serve/cost/operator_costs.hpp) that a
// GPU type carries once they were fitted on it (`llsim calibrate --profile`), in one table that
// the GPU presets (gpu_presets.cpp), a scenario's `gpu:` keys (gpu_spec.cpp), the operators
// model's own keys (models/iteration_model/operators.cpp) and `llsim calibrate`'s starting values
// all read; and the one rule of which value wins: the scenario's, else the GPU's fitted figure,
// else the operators model's assumption.
#pragma once
#include "sim/core/params.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>

namespace llsim {

enum class KernelCoefficient { GemmEfficiency, GemmHalfTokens, BandwidthEfficiency, KernelLaunch };
inline constexpr size_t kKernelCoefficients = 4;

struct KernelCoefficientSpec {
  KernelCoefficient which;
  const char* key;      // as scenarios, presets and --start spell it
  Dimension dimension;  // Number or Duration
  bool share;           // in (0, 1]; else >= 0
  double assumed;       // the operators model's value where no figure was fitted (an assumption)
  const char* what;     // what it is
};

// In KernelCoefficient's order.
const std::array<KernelCoefficientSpec, kKernelCoefficients>& kernel_coefficient_specs();
const KernelCoefficientSpec& kernel_coefficient_spec(KernelCoefficient k);

// A GPU type's fitted figures, in the table's order (absent: not fitted on it).
using KernelFigures = std::array<std::optional<double>, kKernelCoefficients>;

// A key of the table as a parameter: its name, dimension and range, `description` after what it is.
ParamSpec kernel_coefficient_param(const KernelCoefficientSpec& s, const std::string& description);
// The value that wins: the scenario's (when `scenario` is given and has the key), else the GPU's
// fitted figure, else the assumption.
double kernel_coefficient(const KernelCoefficientSpec& s, const Params* scenario, const KernelFigures& gpu);

}  // namespace llsim
