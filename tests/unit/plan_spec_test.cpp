#include "sim/study/plan_runs.hpp"
#include "sim/study/plan_spec.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace llsim;

TEST_CASE("plan axes: ranges, steps with units and lists", "[plan]")
{
  CHECK(parse_plan_axis("a.b=2..5", AxisShape::Monotone, "--axis").values ==
        std::vector<std::string>{"2", "3", "4", "5"});
  CHECK(parse_plan_axis("x=10min..30min:10min", AxisShape::Unimodal, "--unimodal").values ==
        std::vector<std::string>{"10min", "20min", "30min"});
  CHECK(parse_plan_axis("x=0.5..1:0.25", AxisShape::Monotone, "--axis").values ==
        std::vector<std::string>{"0.5", "0.75", "1"});
  CHECK(parse_plan_axis("x=1GB, 4GB, {a: 1, b: 2}", AxisShape::Monotone, "--axis").values ==
        std::vector<std::string>{"1GB", "4GB", "{a: 1, b: 2}"});
  CHECK_THROWS_WITH(parse_plan_axis("x=5..1", AxisShape::Monotone, "--axis"), Catch::Contains("LO <= HI"));
  CHECK_THROWS_WITH(parse_plan_axis("x=1s..1min:1s", AxisShape::Monotone, "--axis"), Catch::Contains("same unit"));
  CHECK_THROWS_WITH(parse_plan_axis("x=1..0", AxisShape::Monotone, "--axis"), Catch::Contains("LO <= HI"));
  CHECK_THROWS_WITH(parse_plan_axis("x=1,1", AxisShape::Monotone, "--axis"), Catch::Contains("given twice"));
  CHECK_THROWS_WITH(parse_plan_axis("=1..3", AxisShape::Monotone, "--axis"), Catch::Contains("expects PATH="));
  CHECK_THROWS_WITH(parse_plan_axis("x=1..1000000", AxisShape::Monotone, "--axis"), Catch::Contains("at most"));
  CHECK_THROWS_WITH(parse_plan_axis("x=", AxisShape::Unimodal, "--unimodal"), Catch::StartsWith("--unimodal x"));
  CHECK_THROWS_WITH(parse_plan_axis("x=1..5:1:1", AxisShape::Monotone, "--axis"), Catch::Contains("one ':'"));
  CHECK(parse_plan_axis("x=0.1..0.7:0.1", AxisShape::Monotone, "--axis").values[2] == "0.3");
}

TEST_CASE("plan targets: the comparison and its side of the interval", "[plan]")
{
  const PlanTarget t = parse_plan_target("chat.slo_attainment >= 0.9");
  CHECK(t.metric == "chat.slo_attainment");
  CHECK(t.op == Comparison::AtLeast);
  CHECK(t.value == 0.9);
  CHECK(parse_plan_target("train.p99<=2e-3").op == Comparison::AtMost);
  CHECK(parse_plan_target("run.cost<100").op == Comparison::Below);
  CHECK_THROWS_WITH(parse_plan_target("chat.x=1"), Catch::Contains("--target expects"));
  CHECK_THROWS_WITH(parse_plan_target("chat.x>=1GB"), Catch::Contains("--target expects"));
  CHECK_THROWS_WITH(parse_plan_target(">=1"), Catch::Contains("--target expects"));
  CHECK_THROWS_WITH(parse_plan_target("chat.x=>0.9"), Catch::Contains("one of >=, <=, > or <"));
  // One seed: the mean decides; several: the interval's bound on the target's side.
  CHECK(meets_target(t, {0.91, NAN, NAN}, 1));
  CHECK_FALSE(meets_target(t, {0.91, 0.89, 0.93}, 3));
  CHECK(meets_target(t, {0.95, 0.9, 1.0}, 3));
  const PlanTarget at_most = parse_plan_target("chat.mean_ttft_s<=2");
  CHECK_FALSE(meets_target(at_most, {1.9, 1.7, 2.1}, 3));
  CHECK(meets_target(at_most, {1.9, 1.8, 2.0}, 3));
  CHECK_FALSE(meets_target(t, {NAN, NAN, NAN}, 1));
}
