#include "sim/platform/kernel_coefficients.hpp"

namespace llsim {

const std::array<KernelCoefficientSpec, kKernelCoefficients>& kernel_coefficient_specs()
{
  static const std::array<KernelCoefficientSpec, kKernelCoefficients> specs = {{
      {KernelCoefficient::GemmEfficiency, "gemm_efficiency", Dimension::Number, true, 0.7,
       "share of peak flops a GEMM of many tokens reaches"},
      {KernelCoefficient::GemmHalfTokens, "gemm_half_tokens", Dimension::Number, false, 64,
       "tokens at which a GEMM reaches half of gemm_efficiency"},
      {KernelCoefficient::BandwidthEfficiency, "bandwidth_efficiency", Dimension::Number, true, 0.8,
       "share of HBM bandwidth memory-bound kernels reach"},
      {KernelCoefficient::KernelLaunch, "kernel_launch", Dimension::Duration, false, 4e-6,
       "fixed time of every GPU kernel, launch and synchronisation"},
  }};
  return specs;
}

const KernelCoefficientSpec& kernel_coefficient_spec(KernelCoefficient k)
{
  return kernel_coefficient_specs()[static_cast<size_t>(k)];
}

ParamSpec kernel_coefficient_param(const KernelCoefficientSpec& s, const std::string& description)
{
  ParamSpec p = ParamSpec::quantity(s.key, s.dimension, std::string(s.what) + "; " + description).may_be_absent();
  return s.share ? std::move(p).positive().at_most(1) : std::move(p).at_least(0);
}

double kernel_coefficient(const KernelCoefficientSpec& s, const Params* scenario, const KernelFigures& gpu)
{
  if (scenario != nullptr && scenario->has(s.key))
    return scenario->quantity(s.key);
  return gpu[static_cast<size_t>(s.which)].value_or(s.assumed);
}

}  // namespace llsim
