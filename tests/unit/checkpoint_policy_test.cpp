// The checkpoint policies (models/checkpoint_policy/): the compute time between two checkpoints
// from the blocking cost C, the job MTBF M and the iteration time, against their closed forms
// (sim/train/young_daly.hpp):
//   fixed    T = interval                    every_n  T = iterations x iteration time
//   young    T = sqrt(2 C M)
//   daly     T = sqrt(2 C M) [1 + sqrt(C / 2M) / 3 + (C / 2M) / 9] - C   if C < 2M, else T = M
// How a run uses them (C measured so far) is in training_run_test.cpp.
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_policy.hpp"
#include "sim/train/young_daly.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

using namespace llsim;

namespace {

std::unique_ptr<CheckpointPolicy> make(const std::string& yaml)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "p.yaml";
  return Registry<CheckpointPolicy>::create(YamlRef(YAML::Load(yaml), "policy", source), {});
}

}  // namespace

TEST_CASE("young and daly intervals", "[checkpoint_policy]")
{
  CHECK(young_interval(100, 10000) == Approx(std::sqrt(2e6)));
  CHECK(daly_interval(100, 10000) == Approx(std::sqrt(2e6) * (1 + std::sqrt(0.005) / 3 + 0.005 / 9) - 100));
  CHECK(daly_interval(100, 10000) == Approx(1348.33).epsilon(1e-5));
  CHECK(daly_interval(300, 100) == 100);  // C >= 2M: T = M
}

TEST_CASE("checkpoint policy fixed: the interval, whatever the cost, MTBF and iteration", "[checkpoint_policy]")
{
  const auto p = make("{impl: fixed, interval: 200s}");
  CHECK(p->interval_s(0, 1e9, 10) == 200);
  CHECK(p->interval_s(50, 3600, 0.5) == 200);
  CHECK(make("{impl: fixed, interval: 1.5h}")->interval_s(10, 100, 1) == 5400);
  CHECK_THROWS_WITH(make("{impl: fixed}"), Catch::Contains("interval"));
  CHECK_THROWS_AS(make("{impl: fixed, interval: 0s}"), ConfigError);
  CHECK_THROWS_AS(make("{impl: fixed, interval: 10GB}"), ConfigError);  // not a duration
}

TEST_CASE("checkpoint policy every_n: iterations x iteration time", "[checkpoint_policy]")
{
  const auto p = make("{impl: every_n, iterations: 5}");
  CHECK(p->interval_s(0, 1e9, 10) == 50);
  CHECK(p->interval_s(1000, 1, 2.5) == 12.5);  // neither C nor M matter
  CHECK(make("{impl: every_n, iterations: 1}")->interval_s(0, 0, 7) == 7);
  CHECK_THROWS_AS(make("{impl: every_n, iterations: 0}"), ConfigError);
  CHECK_THROWS_AS(make("{impl: every_n, iterations: 2.5}"), ConfigError);
  CHECK_THROWS_WITH(make("{impl: every_n}"), Catch::Contains("iterations"));
}

TEST_CASE("checkpoint policy young: sqrt(2 C M)", "[checkpoint_policy]")
{
  const auto p = make("{impl: young}");
  // sqrt(2 x 50 x 3600) = sqrt(360000) = 600; sqrt(2 x 8 x 10000) = 400; sqrt(2 x 100 x 10000) = 1414.21.
  CHECK(p->interval_s(50, 3600, 10) == Approx(600));
  CHECK(p->interval_s(8, 10000, 10) == Approx(400));
  CHECK(p->interval_s(100, 10000, 1) == Approx(1414.2136).epsilon(1e-7));
  CHECK(p->interval_s(8, 10000, 1000) == Approx(400));  // the iteration time does not matter
  // Four times the cost, twice the interval.
  CHECK(p->interval_s(200, 3600, 10) == Approx(1200));
  CHECK(p->interval_s(0, 3600, 10) == 0);  // no cost known yet
  CHECK_THROWS_WITH(make("{impl: young, interval: 1s}"), Catch::Contains("unknown key 'interval'"));
}

TEST_CASE("checkpoint policy daly: the higher-order interval, M when C >= 2M", "[checkpoint_policy]")
{
  const auto p = make("{impl: daly}");
  // C 50, M 3600: C/2M = 1/144, sqrt = 1/12: 600 x (1 + 1/36 + 1/1296) - 50 = 600 x 1333/1296 - 50.
  CHECK(p->interval_s(50, 3600, 10) == Approx(600.0 * 1333 / 1296 - 50));
  CHECK(p->interval_s(50, 3600, 10) == Approx(567.12963).epsilon(1e-7));
  // C 8, M 10000: C/2M = 0.0004, sqrt = 0.02: 400 x (1 + 0.02/3 + 0.0004/9) - 8 = 394.68444.
  CHECK(p->interval_s(8, 10000, 1) == Approx(394.684444).epsilon(1e-7));
  // C = 2M and beyond: T = M.
  CHECK(p->interval_s(200, 100, 1) == 100);
  CHECK(p->interval_s(1e6, 100, 1) == 100);
  // Just below 2M the formula still holds: C 199, M 100, C/2M = 0.995:
  // sqrt(39800) x (1 + sqrt(0.995)/3 + 0.995/9) - 199 = 199.499373 x 1.443054 - 199 = 88.888471
  // (below M: the formula jumps to M at C = 2M, as Daly gives it).
  CHECK(p->interval_s(199, 100, 1) == Approx(88.888471).epsilon(1e-7));
  CHECK(p->interval_s(0, 3600, 10) == 0);
  CHECK(p->interval_s(50, 3600, 1e6) == Approx(567.12963).epsilon(1e-7));  // the iteration time does not matter
}
