#include "sim/core/errors.hpp"
#include "sim/scenario/phase_graph.hpp"
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
  const auto file  = scenario_file("ok.yaml", R"(
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
  CHECK_THROWS_WITH(
      load_scenario(scenario_file("unknown_after.yaml",
                                  "  - {name: a, kind: transfer, from: src, to: fs, bytes: 1GB, after: [x]}\n"),
                    {}),
      Catch::Contains("phases[0].after: no phase named 'x'"));
  CHECK_THROWS_WITH(load_scenario(scenario_file("dup.yaml", R"(
  - {name: a, kind: transfer, from: src, to: fs, bytes: 1GB}
  - {name: a, kind: transfer, from: src, to: fs, bytes: 1GB}
)"),
                                  {}),
                    Catch::Contains("two phases are named 'a'"));
  CHECK_THROWS_WITH(
      load_scenario(scenario_file("group.yaml", "  - {name: a, kind: transfer, from: scr, to: fs, bytes: 1GB}\n"), {}),
      Catch::Contains("phases[0].from: no platform group named 'scr': did you mean 'src'?"));
}

TEST_CASE("scenario: a group two phases compute on must be ordered by after, even transitively", "[scenario]")
{
  const auto source = std::make_shared<SourceInfo>(SourceInfo{"s.yaml", {}, {}});
  const auto claim  = [&source](const std::string& group) {
    return GroupClaim{group, YamlRef(YAML::Node(group), "phases.x.nodes", source)};
  };
  std::vector<PhaseEntry> phases(4);
  const char* names[] = {"a", "b", "c", "d"};
  for (size_t i = 0; i < phases.size(); ++i)
    phases[i].name = names[i];
  phases[0].claims = {claim("gpu")};
  phases[1].claims = {claim("cpu")};  // b: another group, no order needed
  phases[2].claims = {claim("gpu")};
  phases[2].after  = {1};
  phases[1].after  = {0};  // c after b after a
  CHECK_NOTHROW(check_group_claims(phases));
  phases[3].claims = {claim("cpu"), claim("gpu")};
  CHECK_THROWS_WITH(check_group_claims(phases), Catch::Contains("group 'cpu' is also where phase 'b' computes"));
  phases[3].after = {1};  // d after b (so after a), but c and d may still overlap
  CHECK_THROWS_WITH(check_group_claims(phases), Catch::Contains("group 'gpu' is also where phase 'c' computes") &&
                                                    Catch::Contains("add 'c' to the 'after' of 'd'"));
  phases[3].after = {2};
  CHECK_NOTHROW(check_group_claims(phases));
}
