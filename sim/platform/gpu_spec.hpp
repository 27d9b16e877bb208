// The accelerators of one host group, `platform.groups.<name>.gpu`, either typed out or taken
// from the GPU catalogue (sim/platform/gpu_presets.cpp, listed by `llsim models`):
//
//   gpu: {flops: 312TFlops, hbm_bandwidth: 2.04TBps, hbm: 80GB, count: 8}
//   gpu: {preset: h100-sxm, count: 8}
//   gpu: {preset: h100-sxm, count: 8, hbm: 94GB}        any figure of the preset overridden
//
// A preset's figures are written into the scenario's section (resolved.yaml shows them), so a
// preset is a block of figures the keys given beside it override.
#pragma once
#include "sim/core/params.hpp"
#include "sim/platform/catalogue_preset.hpp"
#include "sim/platform/kernel_coefficients.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llsim {

struct GpuPowerCurve;

// How the GPUs of one host talk to each other.
enum class GpuLink { None, NvLink, InfinityFabric, Pcie };

// Accelerators of one host, used together by one serving instance (tensor parallel).
struct GpuSpec {
  double flops   = 0;  // dense peak of one GPU, flop/s (roofline's peak); 0: not given (a table model needs none)
  double hbm_Bps = 0;  // memory bandwidth of one GPU; 0: not given
  double hbm_B   = 0;  // memory of one GPU
  int64_t count  = 1;  // GPUs per host
  // Read by the operators iteration model (tdp and idle: by the energy accounting).
  double fp8_flops   = 0;  // dense FP8 peak of one GPU; 0: no FP8 or not given
  GpuLink link       = GpuLink::None;
  double link_Bps    = 0;  // GPU-to-GPU bandwidth of one GPU, each direction
  int64_t pcie_gen   = 0;  // host link; 0: not given
  int64_t pcie_lanes = 0;
  double tdp_W       = 0;  // board power, drawn while busy; 0: not given
  double idle_W      = 0;  // drawn while idle; 0: not given
  // Measured power against utilisation (`power_table`); tdp_W and idle_W are then its ends.
  std::shared_ptr<const GpuPowerCurve> power_curve;
  // The operators model's kernel coefficients measured on this GPU type (llsim calibrate on a
  // profile): its defaults for these keys where the GPU has them (kernel_coefficients.hpp).
  KernelFigures kernel;
  std::string preset;  // the catalogue GPU its figures come from; empty: none
};

// The GPU catalogue, each figure's source in gpu_presets.cpp.
const std::vector<CataloguePreset>& gpu_presets();
const ParamTable& gpu_params();
GpuSpec parse_gpu(const Params& p);
// Bandwidth of a PCIe link, each direction, after line coding: generation 1 to 6, 1 to 32 lanes.
double pcie_Bps(int64_t gen, int64_t lanes);
const char* gpu_link_name(GpuLink link);

}  // namespace llsim
