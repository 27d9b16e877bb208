#include "sim/platform/gpu_spec.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/platform/gpu_power_curve.hpp"

#include <stdexcept>

namespace llsim {

namespace {

GpuLink parse_link(const Params& p)
{
  const std::string kind = p.text("interconnect");
  if (kind == "nvlink")
    return GpuLink::NvLink;
  if (kind == "infinity_fabric")
    return GpuLink::InfinityFabric;
  return GpuLink::Pcie;
}

// The interconnect keys: a direct link needs its bandwidth, PCIe derives it from gen x lanes.
void parse_interconnect(const Params& p, GpuSpec& g)
{
  if (p.has("pcie_gen") != p.has("pcie_lanes"))
    p.fail(p.has("pcie_gen") ? "pcie_gen" : "pcie_lanes", "give both pcie_gen and pcie_lanes");
  if (p.has("pcie_gen")) {
    g.pcie_gen   = p.integer("pcie_gen");
    g.pcie_lanes = p.integer("pcie_lanes");
  }
  if (!p.has("interconnect")) {
    if (p.has("interconnect_bandwidth"))
      p.fail("interconnect_bandwidth", "give the interconnect it belongs to (nvlink or infinity_fabric)");
    return;
  }
  g.link = parse_link(p);
  if (g.link == GpuLink::Pcie) {
    if (p.has("interconnect_bandwidth"))
      p.fail("interconnect_bandwidth", "with interconnect: pcie the bandwidth follows from pcie_gen and pcie_lanes; "
                                       "give one or the other");
    if (g.pcie_gen == 0)
      p.fail("interconnect", "interconnect: pcie needs pcie_gen and pcie_lanes");
    g.link_Bps = pcie_Bps(g.pcie_gen, g.pcie_lanes);
  } else {
    if (!p.has("interconnect_bandwidth"))
      p.fail("interconnect", "needs interconnect_bandwidth (GPU-to-GPU bandwidth of one GPU, each direction)");
    g.link_Bps = p.quantity("interconnect_bandwidth");
  }
}

}  // namespace

const ParamTable& gpu_params()
{
  static const ParamTable t = [] {
    ParamTable own = {
        ParamSpec::text("preset", "a GPU of the catalogue (llsim models lists them): its figures fill the keys "
                                  "not given, which resolved.yaml shows")
            .may_be_absent(),
        ParamSpec::quantity("flops", Dimension::Compute,
                            "dense peak of one GPU at the serving precision (the roofline iteration model needs it; "
                            "a preset gives the dense BF16 peak)")
            .positive()
            .may_be_absent(),
        ParamSpec::quantity("hbm_bandwidth", Dimension::Bandwidth,
                            "memory bandwidth of one GPU (the roofline iteration model needs it)")
            .positive()
            .may_be_absent(),
        ParamSpec::quantity("hbm", Dimension::Size, "memory of one GPU (required without a preset)")
            .positive()
            .may_be_absent(),
        ParamSpec::integer("count", "GPUs per host (one serving instance uses them all)")
            .defaults("1")
            .at_least(1)
            .at_most(1024),
        ParamSpec::quantity("fp8_flops", Dimension::Compute,
                            "dense FP8 peak of one GPU: the operators model's peak for a model served in FP8 (the "
                            "roofline uses flops)")
            .positive()
            .may_be_absent(),
        ParamSpec::one_of("interconnect", {"nvlink", "infinity_fabric", "pcie"},
                          "how the host's GPUs talk (the operators model's all-reduces cross it)")
            .may_be_absent(),
        ParamSpec::quantity("interconnect_bandwidth", Dimension::Bandwidth,
                            "GPU-to-GPU bandwidth of one GPU over nvlink or infinity_fabric, each direction (half "
                            "the datasheets' bidirectional figure)")
            .positive()
            .may_be_absent(),
        ParamSpec::integer("pcie_gen",
                           "PCIe generation of the GPU's host link (the GPU link's bandwidth with interconnect: pcie)")
            .may_be_absent()
            .at_least(1)
            .at_most(6),
        ParamSpec::integer("pcie_lanes", "PCIe lanes of the GPU's host link (as pcie_gen)")
            .may_be_absent()
            .at_least(1)
            .at_most(32),
        ParamSpec::quantity("tdp", Dimension::Power,
                            "board power of one GPU: its draw while busy, for energy (sim/accounting/accounting.hpp)")
            .positive()
            .may_be_absent(),
        ParamSpec::quantity("idle", Dimension::Power,
                            "draw of one GPU while idle, for energy; datasheets give none, so only a preset fitted to "
                            "measured power has one (a100-80gb-sxm): absent counts 0 W, and report.md says so")
            .at_least(0)
            .may_be_absent(),
        ParamSpec::text("power_table",
                        "CSV of one GPU's measured power against utilisation (columns utilisation, power_W; rows at "
                        "0 and 1), instead of the linear law between idle and tdp, which it replaces")
            .may_be_absent(),
    };
    for (const KernelCoefficientSpec& s : kernel_coefficient_specs())
      own.push_back(kernel_coefficient_param(s, std::string("fitted on this GPU: the operators model's ") + s.key +
                                                    " where the scenario gives none"));
    return own;
  }();
  return t;
}

GpuSpec parse_gpu(const Params& p)
{
  if (p.has("power_table") && (p.has("tdp") || p.has("idle")))
    p.fail("power_table", "gives the GPU's power from idle (utilisation 0) to full load (1): drop tdp and idle");
  if (p.has("preset")) {
    // A given interconnect replaces the preset's link with its bandwidth; a given power_table
    // its tdp and idle.
    const bool own_link  = p.has("interconnect");
    const bool own_power = p.has("power_table");
    apply_preset(p, gpu_presets(), "GPU", [own_link, own_power](const std::string& key) {
      return (key == "interconnect_bandwidth" && own_link) || ((key == "tdp" || key == "idle") && own_power);
    });
  }
  if (!p.has("hbm"))
    p.fail("hbm", "required: the memory of one GPU (e.g. 80GB), or give a preset");
  GpuSpec g;
  g.preset    = p.has("preset") ? p.text("preset") : "";
  g.flops     = p.has("flops") ? p.quantity("flops") : 0;
  g.hbm_Bps   = p.has("hbm_bandwidth") ? p.quantity("hbm_bandwidth") : 0;
  g.hbm_B     = p.quantity("hbm");
  g.count     = p.integer("count");
  g.fp8_flops = p.has("fp8_flops") ? p.quantity("fp8_flops") : 0;
  g.tdp_W     = p.has("tdp") ? p.quantity("tdp") : 0;
  g.idle_W    = p.has("idle") ? p.quantity("idle") : 0;
  if (p.has("power_table")) {
    try {
      g.power_curve = std::make_shared<const GpuPowerCurve>(read_gpu_power_table(p.path("power_table")));
    } catch (const ConfigError& e) {
      p.fail("power_table", e.what());
    }
    g.tdp_W  = g.power_curve->full_W();
    g.idle_W = g.power_curve->idle_W();
  }
  if (g.idle_W > 0 && g.tdp_W == 0)
    p.fail("idle", "give the GPU's tdp too (its draw at work, for energy); idle alone would make it draw more "
                   "idle than busy");
  if (g.idle_W > 0 && g.idle_W > g.tdp_W)
    p.fail("idle", "idle power " + format_quantity(g.idle_W, Dimension::Power) + " is above the tdp " +
                       format_quantity(g.tdp_W, Dimension::Power));
  for (const KernelCoefficientSpec& s : kernel_coefficient_specs())
    if (p.has(s.key))
      g.kernel[static_cast<size_t>(s.which)] = p.quantity(s.key);
  parse_interconnect(p, g);
  return g;
}

double pcie_Bps(int64_t gen, int64_t lanes)
{
  // Per lane, each direction, in bytes/s: 2.5 and 5 GT/s with 8b/10b coding; 8, 16 and 32 GT/s
  // with 128b/130b (PCI-SIG base specifications 3.0-5.0); 6.0's 64 GT/s with 242 of each 256-byte
  // FLIT carrying data (assumption: FEC and CRC overhead only).
  static const double per_lane[] = {
      0.25e9, 0.5e9, 8e9 * 128 / 130 / 8, 16e9 * 128 / 130 / 8, 32e9 * 128 / 130 / 8, 64e9 * 242 / 256 / 8};
  if (gen < 1 || gen > 6)
    throw std::logic_error("PCIe generation " + std::to_string(gen) + " out of range");
  return per_lane[gen - 1] * static_cast<double>(lanes);
}

const char* gpu_link_name(GpuLink link)
{
  switch (link) {
  case GpuLink::NvLink:
    return "nvlink";
  case GpuLink::InfinityFabric:
    return "infinity_fabric";
  case GpuLink::Pcie:
    return "pcie";
  case GpuLink::None:
    break;
  }
  return "none";
}

}  // namespace llsim
