// `llsim calibrate`'s fit (sim/calibrate/calibration.hpp): step times generated from known
// coefficients with 2% noise give the efficiencies back within 3% (the CPU time, a small share
// of each step, within 15%); the held-out error of an exact model is its noise.
#include "sim/calibrate/calibration.hpp"
#include "sim/core/random.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace llsim;

namespace {

LlmModel llama2_7b()
{
  for (const LlmModel& m : llm_presets())
    if (m.name == "llama2-7b")
      return m;
  FAIL("no llama2-7b preset");
  return {};
}

GpuSpec a100()
{
  GpuSpec g;
  g.flops    = 312e12;
  g.hbm_Bps  = 2.039e12;
  g.link_Bps = 300e9;
  g.count    = 1;
  return g;
}

// Prefills of 16 to 8192 tokens and decodes of 1 to 512 sequences at several contexts, timed
// by the model with `truth` and perturbed by 2% (one standard deviation).
std::vector<Measurement> synthetic(const Calibration& model, const OperatorCoefficients& truth, uint64_t seed = 7)
{
  std::vector<Measurement> points;
  Rng rng(seed);
  for (int64_t tokens = 16; tokens <= 8192; tokens *= 2)
    for (int64_t context : {0, 512, 2048}) {
      Measurement m;
      m.work.add_prefill(context, tokens);
      points.push_back(m);
    }
  for (int64_t batch = 1; batch <= 512; batch *= 2)
    for (int64_t context : {50, 100, 200, 500, 1000, 2000, 4000, 8000}) {
      Measurement m;
      m.work.add_decodes(batch, context);
      points.push_back(m);
    }
  for (Measurement& m : points) {
    m.seconds = model.predict(m, truth) * (1 + 0.02 * rng.standard_normal());
    m.scale   = m.seconds;
  }
  return points;
}

}  // namespace

TEST_CASE("calibrate recovers known coefficients within 3% from step times with 2% noise")
{
  const Calibration model(llama2_7b(), a100());
  OperatorCoefficients truth;
  truth.gemm_efficiency      = 0.65;
  truth.gemm_half_tokens     = 120;
  truth.bandwidth_efficiency = 0.72;
  truth.kernel_launch_s      = 4e-6;
  truth.cpu_per_iteration_s  = 1.5e-3;
  truth.cpu_per_sequence_s   = 40e-6;
  const uint64_t seed        = GENERATE(7, 8, 9, 10, 11);
  CAPTURE(seed);
  const std::vector<Measurement> points = synthetic(model, truth, seed);
  // Start from the defaults, far from the truth; kernel_launch and cpu_per_sequence stay as given.
  OperatorCoefficients start;
  start.kernel_launch_s               = truth.kernel_launch_s;
  start.cpu_per_sequence_s            = truth.cpu_per_sequence_s;
  const std::vector<std::string> keys = {"gemm_efficiency", "gemm_half_tokens", "bandwidth_efficiency",
                                         "cpu_per_iteration"};
  const FitResult fit                 = model.fit(points, keys, start);
  CHECK(fit.coefficients.gemm_efficiency == Approx(truth.gemm_efficiency).epsilon(0.03));
  CHECK(fit.coefficients.gemm_half_tokens == Approx(truth.gemm_half_tokens).epsilon(0.03));
  CHECK(fit.coefficients.bandwidth_efficiency == Approx(truth.bandwidth_efficiency).epsilon(0.03));
  // The CPU time is about a tenth of a decode step and nothing of a long prefill, so 2% noise on
  // the steps leaves it uncertain by about 6% (one standard deviation over these seeds): it is
  // checked within 15%, not 3%.
  CHECK(fit.coefficients.cpu_per_iteration_s == Approx(truth.cpu_per_iteration_s).epsilon(0.15));
  // The residual is the noise: a mean |error| of about 2% x sqrt(2/pi) = 1.6%.
  CHECK(fit.mean_abs_error > 0.01);
  CHECK(fit.mean_abs_error < 0.025);
  const double held_out = model.held_out_error(points, keys, start, 5, 1);
  CHECK(held_out > fit.mean_abs_error * 0.9);
  CHECK(held_out < 0.03);
}

TEST_CASE("a fit of nothing keeps the given coefficients and reports their error")
{
  const Calibration model(llama2_7b(), a100());
  OperatorCoefficients truth;
  const std::vector<Measurement> points = synthetic(model, truth);
  const FitResult fit                   = model.fit(points, {}, truth);
  CHECK(fit.coefficients.gemm_efficiency == truth.gemm_efficiency);
  CHECK(fit.mean_abs_error < 0.025);
}

TEST_CASE("an unknown coefficient is named with the known ones")
{
  CHECK_THROWS_WITH(coefficient("gemm_eficiency"), Catch::Contains("gemm_efficiency"));
}
