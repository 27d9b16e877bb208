// The GPU catalogue: `gpu: {preset: NAME}`. Each figure is from the vendor's datasheet named on
// its line; "assumption" marks one that is not. Conventions:
//   flops, fp8_flops       dense peaks (datasheets quote "with sparsity" figures at twice these);
//                          flops is the BF16 tensor peak, the figure roofline uses
//   hbm, hbm_bandwidth     memory per GPU (GB base 10, as datasheets write them) and its bandwidth
//   interconnect_bandwidth each direction: half the bidirectional NVLink / Infinity Fabric figure
//   pcie_gen, pcie_lanes   the host link (a PCIe card's only link to its peers without a bridge)
//   tdp                    maximum board power
//   idle                   no datasheet gives it: only where fitted to measured power
//   gemm_efficiency, gemm_half_tokens, bandwidth_efficiency, kernel_launch
//                          the operators model's kernel coefficients, fitted by llsim calibrate to
//                          Vidur's measured Llama-2-7B operator profile of that GPU
//                          (traces/calibration/, docs/validation.md); only where one was measured
#include "sim/platform/gpu_spec.hpp"

#include <array>

namespace llsim {

namespace {

// NVIDIA A100 Tensor Core GPU datasheet (2021): BF16 tensor 312 TFLOPS dense, no FP8; NVLink
// 600 GB/s bidirectional; PCIe Gen4 (64 GB/s bidirectional = x16).
CataloguePreset a100(std::string name, std::string description, const char* hbm, const char* bandwidth, bool sxm,
                     const char* tdp)
{
  CataloguePreset g{
      std::move(name), std::move(description), {{"flops", "312TFlops"}, {"hbm", hbm}, {"hbm_bandwidth", bandwidth}}};
  if (sxm) {
    g.figures.push_back({"interconnect", "nvlink"});
    g.figures.push_back({"interconnect_bandwidth", "300GBps"});
  } else {
    // The optional NVLink bridge joins only pairs of cards: PCIe is the link assumed.
    g.figures.push_back({"interconnect", "pcie"});
  }
  g.figures.push_back({"pcie_gen", "4"});
  g.figures.push_back({"pcie_lanes", "16"});
  g.figures.push_back({"tdp", tdp});
  return g;
}

// The operators model's fitted kernel coefficients added to a preset, in the order of
// kernel_coefficients.hpp: gemm_efficiency, gemm_half_tokens, bandwidth_efficiency, kernel_launch.
CataloguePreset fitted(CataloguePreset g, const std::array<const char*, kKernelCoefficients>& values)
{
  for (size_t i = 0; i < values.size(); ++i)
    g.figures.push_back({kernel_coefficient_specs()[i].key, values[i]});
  return g;
}

// A fitted idle power added to a preset (docs/results/gpu_power.md).
CataloguePreset fitted_idle(CataloguePreset g, const char* idle)
{
  g.figures.push_back({"idle", idle});
  return g;
}

// Hopper: H100 SXM, PCIe and NVL, H200.
std::vector<CataloguePreset> hopper()
{
  return {
      fitted(CataloguePreset{"h100-sxm",
                             "NVIDIA H100 SXM5 80GB",
                             {
                                 {"flops", "989.4TFlops"},       // H100 datasheet: BF16 1,979 TFLOPS with sparsity
                                 {"fp8_flops", "1978.9TFlops"},  // H100 datasheet: FP8 3,958 TFLOPS with sparsity
                                 {"hbm", "80GB"},                // H100 datasheet
                                 {"hbm_bandwidth", "3.35TBps"},  // H100 datasheet
                                 {"interconnect", "nvlink"},     // H100 datasheet: NVLink 900 GB/s
                                 {"interconnect_bandwidth", "450GBps"},
                                 {"pcie_gen", "5"},  // H100 datasheet: PCIe Gen5 128 GB/s (x16)
                                 {"pcie_lanes", "16"},
                                 {"tdp", "700W"},  // H100 datasheet: up to 700 W
                             }},
             // Fitted: Vidur's H100 profile (10,440 operator times, 2.0% error, held-out 2.0%).
             {"0.7719", "212.8", "0.7691", "4.653us"}),
      {"h100-pcie",
       "NVIDIA H100 PCIe 80GB",
       {
           {"flops", "756.5TFlops"},     // H100 PCIe product brief: BF16 1,513 TFLOPS with sparsity
           {"fp8_flops", "1513TFlops"},  // H100 PCIe product brief: FP8 3,026 TFLOPS with sparsity
           {"hbm", "80GB"},              // H100 PCIe product brief
           {"hbm_bandwidth", "2TBps"},   // H100 PCIe product brief: 2.0 TB/s
           {"interconnect", "pcie"},     // the NVLink bridge (600 GB/s) joins pairs only: assumption
           {"pcie_gen", "5"},            // H100 PCIe product brief: PCIe Gen5 x16
           {"pcie_lanes", "16"},
           {"tdp", "350W"},  // H100 PCIe product brief: 300-350 W
       }},
      {"h100-nvl",
       "NVIDIA H100 NVL 94GB",
       {
           {"flops", "835.5TFlops"},       // H100 datasheet (NVL column): BF16 1,671 TFLOPS with sparsity
           {"fp8_flops", "1670.5TFlops"},  // H100 datasheet (NVL column): FP8 3,341 TFLOPS with sparsity
           {"hbm", "94GB"},                // H100 datasheet (NVL column)
           {"hbm_bandwidth", "3.9TBps"},   // H100 datasheet (NVL column)
           {"interconnect", "nvlink"},     // H100 datasheet (NVL column): NVLink bridge 600 GB/s
           {"interconnect_bandwidth", "300GBps"},
           {"pcie_gen", "5"},  // H100 datasheet (NVL column): PCIe Gen5 128 GB/s
           {"pcie_lanes", "16"},
           {"tdp", "400W"},  // H100 datasheet (NVL column): 350-400 W
       }},
      {"h200",
       "NVIDIA H200 SXM 141GB",
       {
           {"flops", "989.4TFlops"},       // H200 datasheet: BF16 1,979 TFLOPS with sparsity
           {"fp8_flops", "1978.9TFlops"},  // H200 datasheet: FP8 3,958 TFLOPS with sparsity
           {"hbm", "141GB"},               // H200 datasheet
           {"hbm_bandwidth", "4.8TBps"},   // H200 datasheet
           {"interconnect", "nvlink"},     // H200 datasheet: NVLink 900 GB/s
           {"interconnect_bandwidth", "450GBps"},
           {"pcie_gen", "5"},  // H200 datasheet: PCIe Gen5 128 GB/s
           {"pcie_lanes", "16"},
           {"tdp", "700W"},  // H200 datasheet: up to 700 W
       }},
  };
}

// Blackwell, Ada and AMD: B200, L40S, RTX 4090, RTX PRO 6000, MI300X.
std::vector<CataloguePreset> others()
{
  return {
      {"b200",
       "NVIDIA B200 (HGX B200)",
       {
           {"flops", "2250TFlops"},      // HGX B200 datasheet: BF16 36 PFLOPS with sparsity for 8 GPUs
           {"fp8_flops", "4500TFlops"},  // HGX B200 datasheet: FP8 72 PFLOPS with sparsity for 8 GPUs
           {"hbm", "180GB"},             // HGX B200 datasheet: 1,440 GB for 8 GPUs
           {"hbm_bandwidth", "8TBps"},   // HGX B200 datasheet: 64 TB/s for 8 GPUs
           {"interconnect", "nvlink"},   // HGX B200 datasheet: NVLink 5, 1.8 TB/s per GPU
           {"interconnect_bandwidth", "900GBps"},
           {"pcie_gen", "5"},  // assumption: HGX B200 boards' host links are PCIe Gen5 x16
           {"pcie_lanes", "16"},
           {"tdp", "1000W"},  // HGX B200 datasheet: up to 1,000 W per GPU
       }},
      {"a10",
       "NVIDIA A10 24GB",
       {
           {"flops", "125TFlops"},        // A10 datasheet: BF16 tensor 125 TFLOPS (250 with sparsity), no FP8
           {"hbm", "24GB"},               // A10 datasheet: 24 GB GDDR6
           {"hbm_bandwidth", "600GBps"},  // A10 datasheet
           {"interconnect", "pcie"},      // A10 datasheet: no NVLink
           {"pcie_gen", "4"},             // A10 datasheet: PCIe Gen4 x16, 64 GB/s bidirectional
           {"pcie_lanes", "16"},
           {"tdp", "150W"},  // A10 datasheet
       }},
      {"l40s",
       "NVIDIA L40S 48GB",
       {
           {"flops", "362.05TFlops"},     // L40S datasheet: BF16 362.05 TFLOPS (733 with sparsity)
           {"fp8_flops", "733TFlops"},    // L40S datasheet: FP8 733 TFLOPS (1,466 with sparsity)
           {"hbm", "48GB"},               // L40S datasheet: 48 GB GDDR6
           {"hbm_bandwidth", "864GBps"},  // L40S datasheet
           {"interconnect", "pcie"},      // L40S datasheet: no NVLink
           {"pcie_gen", "4"},             // L40S datasheet: PCIe Gen4 x16
           {"pcie_lanes", "16"},
           {"tdp", "350W"},  // L40S datasheet
       }},
      {"rtx-4090",
       "NVIDIA GeForce RTX 4090 24GB",
       {
           {"flops", "165.2TFlops"},       // Ada architecture whitepaper: BF16, FP32 accumulate, dense
           {"fp8_flops", "330.3TFlops"},   // Ada architecture whitepaper: FP8, FP32 accumulate, dense
           {"hbm", "24GB"},                // Ada architecture whitepaper: 24 GB GDDR6X
           {"hbm_bandwidth", "1008GBps"},  // Ada architecture whitepaper
           {"interconnect", "pcie"},       // no NVLink on the RTX 4090
           {"pcie_gen", "4"},              // RTX 4090 specifications: PCIe Gen4 x16
           {"pcie_lanes", "16"},
           {"tdp", "450W"},  // RTX 4090 specifications: 450 W total graphics power
       }},
      {"rtx-pro-6000",
       "NVIDIA RTX PRO 6000 Blackwell Workstation Edition 96GB",
       {
           {"flops", "500TFlops"},         // assumption: the datasheet's 4,000 AI TOPS (FP4, sparse) / 8
           {"fp8_flops", "1000TFlops"},    // assumption: the datasheet's 4,000 AI TOPS (FP4, sparse) / 4
           {"hbm", "96GB"},                // RTX PRO 6000 Blackwell datasheet: 96 GB GDDR7
           {"hbm_bandwidth", "1792GBps"},  // RTX PRO 6000 Blackwell datasheet
           {"interconnect", "pcie"},       // RTX PRO 6000 Blackwell datasheet: no NVLink
           {"pcie_gen", "5"},              // RTX PRO 6000 Blackwell datasheet: PCIe Gen5 x16
           {"pcie_lanes", "16"},
           {"tdp", "600W"},  // RTX PRO 6000 Blackwell datasheet: 600 W
       }},
      {"mi300x",
       "AMD Instinct MI300X 192GB",
       {
           {"flops", "1307.4TFlops"},            // MI300X datasheet: BF16 dense
           {"fp8_flops", "2614.9TFlops"},        // MI300X datasheet: FP8 dense
           {"hbm", "192GB"},                     // MI300X datasheet: 192 GB HBM3
           {"hbm_bandwidth", "5.3TBps"},         // MI300X datasheet
           {"interconnect", "infinity_fabric"},  // MI300X datasheet: 7 links x 128 GB/s = 896 GB/s
           {"interconnect_bandwidth", "448GBps"},
           {"pcie_gen", "5"},  // MI300X datasheet: PCIe Gen5 x16
           {"pcie_lanes", "16"},
           {"tdp", "750W"},  // MI300X datasheet: 750 W
       }},
  };
}

}  // namespace

const std::vector<CataloguePreset>& gpu_presets()
{
  static const std::vector<CataloguePreset> presets = [] {
    std::vector<CataloguePreset> all = {
        a100("a100-40gb-sxm", "NVIDIA A100 40GB SXM", "40GB", "1555GBps", true, "400W"),
        // Idle: fitted by analysis/fit_gpu_power.py to Splitwise's measured average power of
        // Llama-2-70B on DGX-A100 at TP 2 and 8 (held out: TP 4 and BLOOM-176B, 4.9% mean error).
        fitted_idle(fitted(a100("a100-80gb-sxm", "NVIDIA A100 80GB SXM", "80GB", "2039GBps", true, "400W"),
                           // Vidur's A100 profile (10,440 operator times, 1.6% error, held-out 1.6%).
                           {"0.7619", "95.31", "0.7501", "5.572us"}),
                    "123W"),
        a100("a100-40gb-pcie", "NVIDIA A100 40GB PCIe", "40GB", "1555GBps", false, "250W"),
        a100("a100-80gb-pcie", "NVIDIA A100 80GB PCIe", "80GB", "1935GBps", false, "300W"),
    };
    for (auto family : {hopper(), others()})
      all.insert(all.end(), family.begin(), family.end());
    return all;
  }();
  return presets;
}

}  // namespace llsim
