// The GPU catalogue and the gpu keys (sim/platform/gpu_spec.hpp, gpu_presets.cpp): a preset's
// figures, overridden by the keys beside it and written into the section; the explicit form
// unchanged; PCIe bandwidth from generation and lanes; errors.
#include "sim/core/errors.hpp"
#include "sim/platform/gpu_spec.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace llsim;

namespace {

struct Parsed {
  GpuSpec gpu;
  YAML::Node node;  // the section after parsing: what resolved.yaml shows
};

Parsed gpu(const std::string& text)
{
  auto source     = std::make_shared<SourceInfo>();
  source->file    = "gpu.yaml";
  YAML::Node node = YAML::Load(text);
  const GpuSpec g = parse_gpu(Params(YamlRef(node, "gpu", source), gpu_params()));
  return {g, node};
}

}  // namespace

TEST_CASE("gpu spec: a preset's figures", "[gpu_spec]")
{
  const Parsed h100 = gpu("{preset: h100-sxm, count: 8}");
  CHECK(h100.gpu.flops == 989.4e12);
  CHECK(h100.gpu.fp8_flops == 1978.9e12);
  CHECK(h100.gpu.hbm_B == 80e9);
  CHECK(h100.gpu.hbm_Bps == 3.35e12);
  CHECK(h100.gpu.count == 8);
  CHECK(h100.gpu.link == GpuLink::NvLink);
  CHECK(h100.gpu.link_Bps == 450e9);
  CHECK(h100.gpu.pcie_gen == 5);
  CHECK(h100.gpu.pcie_lanes == 16);
  CHECK(h100.gpu.tdp_W == 700);
  CHECK(h100.node["flops"].as<std::string>() == "989.4TFlops");  // resolved.yaml shows the figures
  CHECK(h100.node["tdp"].as<std::string>() == "700W");

  const Parsed a100 = gpu("{preset: a100-80gb-sxm}");
  CHECK(a100.gpu.flops == 312e12);
  CHECK(a100.gpu.fp8_flops == 0);  // no FP8 on the A100
  CHECK(!a100.node["fp8_flops"]);
  CHECK(a100.gpu.hbm_Bps == 2039e9);

  const Parsed l40s = gpu("{preset: l40s}");
  CHECK(l40s.gpu.link == GpuLink::Pcie);
  CHECK(l40s.gpu.link_Bps == pcie_Bps(4, 16));
  CHECK(!l40s.node["interconnect_bandwidth"]);
  CHECK(gpu("{preset: mi300x}").gpu.link == GpuLink::InfinityFabric);
}

TEST_CASE("gpu spec: every preset parses, with the figures roofline needs", "[gpu_spec]")
{
  CHECK(gpu_presets().size() == 14);  // the thirteen and the A10
  for (const auto& preset : gpu_presets()) {
    INFO(preset.name);
    const GpuSpec g = gpu("{preset: " + preset.name + "}").gpu;
    CHECK(g.flops > 0);
    CHECK(g.hbm_Bps > 0);
    CHECK(g.hbm_B > 0);
    CHECK(g.tdp_W > 0);
    CHECK(g.link_Bps > 0);
    CHECK((g.fp8_flops == 0 ||
           g.fp8_flops == Approx(2 * g.flops).epsilon(0.02)));  // FP8 is twice BF16 (L40S datasheet: 1.2% more)
  }
}

TEST_CASE("gpu spec: keys beside a preset override its figures", "[gpu_spec]")
{
  const Parsed p = gpu("{preset: h100-sxm, count: 8, hbm: 94GB, flops: 500TFlops}");
  CHECK(p.gpu.hbm_B == 94e9);
  CHECK(p.gpu.flops == 500e12);
  CHECK(p.gpu.hbm_Bps == 3.35e12);
  CHECK(p.node["hbm"].as<std::string>() == "94GB");
  // Another interconnect replaces the preset's link with its bandwidth.
  const Parsed pcie = gpu("{preset: h100-sxm, interconnect: pcie}");
  CHECK(pcie.gpu.link == GpuLink::Pcie);
  CHECK(pcie.gpu.link_Bps == pcie_Bps(5, 16));
  const Parsed bridged = gpu("{preset: h100-pcie, interconnect: nvlink, interconnect_bandwidth: 300GBps}");
  CHECK(bridged.gpu.link_Bps == 300e9);
}

TEST_CASE("gpu spec: the explicit form is unchanged", "[gpu_spec]")
{
  const Parsed p = gpu("{flops: 312TFlops, hbm_bandwidth: 2.04TBps, hbm: 80GB, count: 8}");
  CHECK(p.gpu.flops == 312e12);
  CHECK(p.gpu.hbm_Bps == 2.04e12);
  CHECK(p.gpu.hbm_B == 80e9);
  CHECK(p.gpu.count == 8);
  CHECK(p.gpu.link == GpuLink::None);
  CHECK(p.gpu.fp8_flops == 0);
  CHECK(p.node.size() == 4);                 // nothing added to resolved.yaml
  CHECK(gpu("{hbm: 24GB}").gpu.flops == 0);  // a table model needs no peaks
}

TEST_CASE("gpu spec: PCIe bandwidth per direction from generation and lanes", "[gpu_spec]")
{
  CHECK(pcie_Bps(4, 16) == Approx(31.5e9).epsilon(0.001));  // "64 GB/s" both ways
  CHECK(pcie_Bps(5, 16) == Approx(63.0e9).epsilon(0.001));
  CHECK(pcie_Bps(3, 8) == Approx(7.88e9).epsilon(0.001));
  CHECK(pcie_Bps(1, 1) == 0.25e9);
}

TEST_CASE("gpu spec: errors", "[gpu_spec]")
{
  CHECK_THROWS_WITH(gpu("{preset: h100}"),
                    Catch::Contains("gpu.preset") && Catch::Contains("unknown GPU 'h100'") && Catch::Contains("h200"));
  CHECK_THROWS_WITH(gpu("{preset: h100-sxm, hbm: -80GB}"),
                    Catch::Contains("gpu.hbm") && Catch::Contains("out of range"));
  CHECK_THROWS_WITH(gpu("{preset: l40s, interconnect_bandwidth: 100GBps}"),
                    Catch::Contains("gpu.interconnect_bandwidth") && Catch::Contains("follows from pcie_gen"));
  CHECK_THROWS_WITH(gpu("{hbm: 80GB, interconnect: nvlink}"), Catch::Contains("needs interconnect_bandwidth"));
  CHECK_THROWS_WITH(
      gpu("{hbm: 80GB, interconnect: pci}"),
      Catch::Contains("unknown interconnect 'pci': did you mean 'pcie'? (expected nvlink, infinity_fabric or pcie)"));
  CHECK_THROWS_WITH(gpu("{hbm: 80GB, pcie_gen: 4}"), Catch::Contains("give both pcie_gen and pcie_lanes"));
  CHECK_THROWS_WITH(gpu("{hbm: 80GB, interconnect_bandwidth: 1GBps}"), Catch::Contains("give the interconnect"));
  CHECK_THROWS_WITH(gpu("{flops: 1TFlops}"), Catch::Contains("hbm: required") && Catch::Contains("or give a preset"));
}
