#include "sim/study/sweep_grid.hpp"
#include "sim/study/sweep_table.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using namespace llsim;

TEST_CASE("sweep: an axis splits its values at top-level commas only", "[sweep]")
{
  const SweepAxis a = parse_sweep_axis("phases.x.system={impl: vllm, instances: gpu},{impl: mooncake}");
  CHECK(a.path == "phases.x.system");
  REQUIRE(a.values.size() == 2);
  CHECK(a.values[0] == "{impl: vllm, instances: gpu}");
  CHECK(parse_sweep_axis("a.b = 1, 2 ,[3, 4]").values == std::vector<std::string>{"1", "2", "[3, 4]"});
  CHECK_THROWS_AS(parse_sweep_axis("novalue"), std::invalid_argument);
  CHECK_THROWS_AS(parse_sweep_axis("=1,2"), std::invalid_argument);
  CHECK_THROWS_AS(parse_sweep_axis("a=1,,2"), std::invalid_argument);
  CHECK_THROWS_AS(parse_sweep_axis("a={1,2"), std::invalid_argument);
}

TEST_CASE("sweep: the points are the cross product, the first axis slowest", "[sweep]")
{
  const auto points = sweep_points({parse_sweep_axis("a=1,2"), parse_sweep_axis("b=x,y,z")});
  REQUIRE(points.size() == 6);
  CHECK(points[1].overrides == std::vector<std::string>{"a=1", "b=y"});
  CHECK(points[3].values == std::vector<std::string>{"2", "x"});
  CHECK(sweep_points({}).size() == 1);
}

TEST_CASE("sweep: Student's t at 97.5%", "[sweep]")
{
  CHECK(t975(1) == Approx(12.706));
  CHECK(t975(10) == Approx(2.228));
  CHECK(t975(30) == Approx(2.042));
  CHECK(t975(60) == Approx(2.000).epsilon(0.001));
  CHECK(t975(100000) == Approx(1.960).epsilon(0.001));
}

TEST_CASE("sweep: summary metrics keep the summary's order and skip text", "[sweep]")
{
  const RunSummary r = read_run_summary(R"({"scenario": "s", "seed": 1, "scenario_fnv1a": "00ab",
      "simulated_time_s": 5, "wall_time_s": 0.1,
      "phases": {"b": {"kind": "serve", "zeta": 1, "alpha": 2}}, "services": {"pool": {"hits": 3}}})");
  CHECK(r.scenario_hash == "00ab");
  CHECK(r.wall_time_s == 0.1);
  const auto& m = r.metrics;
  REQUIRE(m.size() == 4);
  CHECK(m[0].first == "simulated_time_s");
  CHECK(m[1].first == "b.zeta");
  CHECK(m[2].first == "b.alpha");
  CHECK(m[3] == std::pair<std::string, double>{"services.pool.hits", 3});
  CHECK_THROWS(read_run_summary("{}"));
}

TEST_CASE("sweep: rows come in point and seed order whatever order the runs ended in", "[sweep]")
{
  std::vector<SweepAxis> axes = {parse_sweep_axis("a=1,2")};
  SweepTable t(axes, sweep_points(axes));
  t.add({1, 2, {{"m", 4}}});
  t.add({0, 1, {{"m", 1}}});
  t.add({1, 1, {{"m", 2}}});
  CHECK(t.results_csv() == "point,seed,a,m\n0,1,1,1\n1,1,2,2\n1,2,2,4\n");
  // Point 1: mean 3, s = sqrt(2), half-width 12.706 x sqrt(2) / sqrt(2) = 12.706.
  CHECK(t.summary_csv() == "point,a,metric,n,mean,ci95_low,ci95_high\n0,1,m,1,1,,\n1,2,m,2,3,-9.706,15.706\n");
}
