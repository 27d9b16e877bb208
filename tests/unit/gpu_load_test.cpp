// GPU load for the energy accounting (sim/serve/cost/gpu_load.hpp): the share of an iteration's time
// its GPUs' busier peak would need, against hand-worked figures for LLaMA-2 7B on two GPUs.
#include "sim/core/params.hpp"
#include "sim/serve/cost/gpu_load.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

LlmModel llama2_7b()
{
  auto source = std::make_shared<SourceInfo>();
  return parse_llm_model(Params(YamlRef(YAML::Load("{preset: llama2-7b}"), "model", source), llm_model_params()));
}

// Two GPUs of 312 Tflop/s and 2 TB/s: 624e12 flop/s and 4e12 B/s together.
GpuSpec gpus(double flops, double hbm_Bps)
{
  GpuSpec g;
  g.flops   = flops;
  g.hbm_Bps = hbm_Bps;
  g.count   = 2;
  return g;
}
const GpuSpec kGpus = gpus(312e12, 2e12);

}  // namespace

TEST_CASE("a decode at batch 1 loads the GPUs by the time its weights and KV take at peak bandwidth")
{
  const GpuLoad load(llama2_7b(), kGpus);
  BatchWork w;
  w.add_decode(1000);  // reads weights 13.48e9 B + KV 524288 B x 1001 tokens
  const double at_peak = (13.48e9 + 524288.0 * 1001) / 4e12;
  CHECK(load.utilisation(w, at_peak) == Approx(1.0).epsilon(1e-12));
  CHECK(load.utilisation(w, at_peak / 0.8) == Approx(0.8).epsilon(1e-12));
  CHECK(load.utilisation(w, 2 * at_peak) == Approx(0.5).epsilon(1e-12));
  // Its two shares: the bytes' time at peak bandwidth, and its flop's, far less, at peak flops.
  const double flop = 2 * 6.74e9 + 4.0 * 32 * 4096 * 1001;
  CHECK(load.shares(w, 2 * at_peak).hbm == Approx(0.5).epsilon(1e-12));
  CHECK(load.shares(w, 2 * at_peak).compute == Approx(flop / 624e12 / (2 * at_peak)).epsilon(1e-12));
}

TEST_CASE("a long prefill loads the GPUs by its flops")
{
  const GpuLoad load(llama2_7b(), kGpus);
  BatchWork w;
  w.add_prefill(0, 4000);
  const double flop    = 2 * 6.74e9 * 4000 + 4.0 * 32 * 4096 * (4000.0 * 4001 / 2);
  const double at_peak = flop / 624e12;
  REQUIRE(at_peak > (13.48e9 + 524288.0 * 4000) / 4e12);  // compute is the busier peak
  CHECK(load.utilisation(w, at_peak / 0.5) == Approx(0.5).epsilon(1e-12));
}

TEST_CASE("GPU load is capped at 1 and counts as full when it cannot tell")
{
  const GpuLoad load(llama2_7b(), kGpus);
  BatchWork w;
  w.add_decode(1000);
  CHECK(load.utilisation(w, 1e-9) == 1.0);  // faster than the peaks: capped
  CHECK(load.utilisation(w, 0) == 1.0);
  const GpuLoad no_peaks(llama2_7b(), gpus(0, 0));
  CHECK(no_peaks.utilisation(w, 1.0) == 1.0);
}
