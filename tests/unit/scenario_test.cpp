#include "sim/core/errors.hpp"
#include "sim/scenario/scenario.hpp"
#include "temp_file.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

const char* const kPlatform = R"(
platform:
  groups:
    src: {count: 2, nic: {bandwidth: 1GBps}}
    dst: {count: 1, nic: {bandwidth: 1GBps}, disks: {read: 1GBps, write: 1GBps, capacity: 1TB}}
  backbone: {bandwidth: 10GBps}
services:
  fs: {kind: storage, servers: dst}
)";

std::string scenario_file(const std::string& name, const std::string& phases)
{
  return test::write_temp_file(name, std::string("name: t\n") + kPlatform + "phases:\n" + phases);
}

}  // namespace

TEST_CASE("scenario: phases, defaults and dependencies", "[scenario]")
{
  const auto file = scenario_file("ok.yaml", R"(
  - {name: a, kind: transfer, from: src, to: fs, bytes: 1GB}
  - {name: b, kind: transfer, from: src, to: fs, bytes: 1GB, after: [a], start: 5s}
)");
  const Scenario s = load_scenario(file, {});
  REQUIRE(s.phases.size() == 2);
  CHECK(s.phases[1].after == std::vector<size_t>{0});
  CHECK(s.phases[1].start_s == 5);
  CHECK(s.seed == 1);
  CHECK(s.tree["phases"][0]["streams"].Scalar() == "1");
}

TEST_CASE("scenario: --set addresses phases by name and --seed overrides", "[scenario]")
{
  const auto file = scenario_file("set.yaml", "  - {name: a, kind: transfer, from: src, to: fs, bytes: 1GB}\n");
  LoadOptions options;
  options.overrides = {"phases.a.streams=3", "platform.groups.dst.count=4"};
  options.seed      = 42;
  const Scenario s  = load_scenario(file, options);
  CHECK(s.tree["phases"][0]["streams"].as<int>() == 3);
  CHECK(s.platform->find("dst")->count == 4);
  CHECK(s.seed == 42);
  options.overrides = {"phases.zz.streams=3"};
  CHECK_THROWS_WITH(load_scenario(file, options), Catch::Contains("no item named 'zz'"));
  options.overrides = {"phases.a.streams"};
  CHECK_THROWS_WITH(load_scenario(file, options), Catch::Contains("expected PATH=VALUE"));
}

TEST_CASE("scenario: a cycle in after is named", "[scenario]")
{
  const auto file = scenario_file("cycle.yaml", R"(
  - {name: a, kind: transfer, from: src, to: fs, bytes: 1GB, after: [c]}
  - {name: b, kind: transfer, from: src, to: fs, bytes: 1GB, after: [a]}
  - {name: c, kind: transfer, from: src, to: fs, bytes: 1GB, after: [b]}
)");
  CHECK_THROWS_WITH(load_scenario(file, {}), Catch::Contains("form a cycle") && Catch::Contains("a -> b -> c -> a"));
}

TEST_CASE("scenario: bad phase references", "[scenario]")
{
  CHECK_THROWS_WITH(load_scenario(scenario_file("unknown_after.yaml",
                                                "  - {name: a, kind: transfer, from: src, to: fs, bytes: 1GB, after: [x]}\n"),
                                  {}),
                    Catch::Contains("phases[0].after: no phase named 'x'"));
  CHECK_THROWS_WITH(load_scenario(scenario_file("dup.yaml", R"(
  - {name: a, kind: transfer, from: src, to: fs, bytes: 1GB}
  - {name: a, kind: transfer, from: src, to: fs, bytes: 1GB}
)"),
                                  {}),
                    Catch::Contains("two phases are named 'a'"));
  CHECK_THROWS_WITH(load_scenario(scenario_file("group.yaml", "  - {name: a, kind: transfer, from: scr, to: fs, bytes: 1GB}\n"),
                                  {}),
                    Catch::Contains("phases[0].from: no platform group named 'scr': did you mean 'src'?"));
}
