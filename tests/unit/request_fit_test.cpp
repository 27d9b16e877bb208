// Fitting coefficients by simulating a run (sim/calibrate/request_fit.hpp), with a stand-in for the
// simulation: smooth request times whose coefficients are known.
#include "sim/calibrate/request_fit.hpp"
#include "sim/core/errors.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace llsim;

namespace {

// TTFT from a prefill's compute, TPOT from a decode step's CPU time and weight reads.
std::vector<RequestTimes> stand_in(const OperatorCoefficients& c, int requests)
{
  std::vector<RequestTimes> times;
  for (int i = 0; i < requests; ++i) {
    const double tokens = 100.0 * (i + 1);
    times.push_back({tokens * 1e-4 / c.gemm_efficiency, 5e-3 + c.cpu_per_iteration_s + 1e-5 * i});
  }
  return times;
}

}  // namespace

TEST_CASE("request errors: relative per request, 1 for a request the run did not complete")
{
  const std::vector<RequestTimes> measured  = {{1.0, 0.1}, {2.0, std::nan("")}, {1.0, 0.2}};
  const std::vector<RequestTimes> simulated = {{1.1, 0.1}, {1.0, 0.5}, {}};
  const RequestErrors e                     = request_errors(measured, simulated, 2);
  CHECK(e.ttft[0] == Approx(0.1));
  CHECK(e.tpot[0] == 0);
  CHECK(e.ttft[1] == Approx(-0.5));
  CHECK(std::isnan(e.tpot[1]));  // not measured
  CHECK(e.ttft[2] == 1);         // not completed
  CHECK(e.tpot[2] == 1);
  CHECK(e.fitted == Approx((0.1 + 0 + 0.5) / 3));
  CHECK(e.held_out == 1);
  CHECK_THROWS_AS(request_errors(measured, {{1, 1}}, 3), ConfigError);
}

TEST_CASE("fitting by simulation recovers the coefficients of a smooth run")
{
  OperatorCoefficients truth;
  truth.gemm_efficiency                    = 0.45;
  truth.cpu_per_iteration_s                = 3e-3;
  const std::vector<RequestTimes> measured = stand_in(truth, 20);
  int calls                                = 0;
  const SimulateRun simulate               = [&](const OperatorCoefficients& c) {
    ++calls;
    return stand_in(c, 20);
  };
  const RequestFitResult fit =
      fit_by_simulation(measured, {"gemm_efficiency", "cpu_per_iteration"}, OperatorCoefficients{}, simulate, 16, 300);
  CHECK(fit.coefficients.gemm_efficiency == Approx(0.45).epsilon(1e-3));
  CHECK(fit.coefficients.cpu_per_iteration_s == Approx(3e-3).epsilon(1e-3));
  CHECK(fit.errors.held_out < 1e-3);
  CHECK(fit.runs == calls);
  CHECK(fit.runs <= 301);
}

TEST_CASE("fitting by simulation refuses a coefficient that moves no request")
{
  const std::vector<RequestTimes> measured = stand_in(OperatorCoefficients{}, 5);
  const SimulateRun simulate               = [](const OperatorCoefficients& c) { return stand_in(c, 5); };
  CHECK_THROWS_WITH(fit_by_simulation(measured, {"link_latency"}, OperatorCoefficients{}, simulate, 5, 50),
                    Catch::Contains("no request's simulated time depends on link_latency"));
}
