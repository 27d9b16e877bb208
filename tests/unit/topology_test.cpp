#include "sim/core/errors.hpp"
#include "sim/platform/topology.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

PlatformSpec parse(const std::string& text)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "p.yaml";
  return parse_platform(Params(YamlRef(YAML::Load(text), "platform", source), platform_params()));
}

const char* const kTwoPaths = R"(
groups:
  a: {count: 1, nic: {bandwidth: 1GBps}}
  b: {count: 1, nic: {bandwidth: 1GBps}}
topology:
  switches: [fast, slow]
  links:
    - {name: a-slow, between: [a, slow], bandwidth: 1GBps, latency: 1ms}
    - {name: slow-b, between: [slow, b], bandwidth: 1GBps, latency: 1ms}
    - {name: a-fast, between: [a, fast], bandwidth: 1GBps, latency: 1us}
    - {name: b-fast, between: [b, fast], bandwidth: 1GBps, latency: 1us}
)";

}  // namespace

TEST_CASE("topology: routes follow the lowest-latency path with link directions", "[platform]")
{
  const PlatformSpec spec = parse(kTwoPaths);
  const auto route        = route_between(spec, "a", "b");
  REQUIRE(route.size() == 2);
  CHECK(spec.topology->links[route[0].link].name == "a-fast");
  CHECK(route[0].forward);
  CHECK(spec.topology->links[route[1].link].name == "b-fast");
  CHECK_FALSE(route[1].forward);  // declared [b, fast], crossed from fast to b
}

TEST_CASE("topology: a disconnected group is an error", "[platform]")
{
  CHECK_THROWS_WITH(parse(R"(
groups:
  a: {count: 1, nic: {bandwidth: 1GBps}}
  b: {count: 1, nic: {bandwidth: 1GBps}}
  c: {count: 1, nic: {bandwidth: 1GBps}}
topology:
  links: [{name: ab, between: [a, b], bandwidth: 1GBps}]
)"),
                    Catch::Contains("group 'c' is not connected"));
}

TEST_CASE("topology: unknown link ends and missing backbone", "[platform]")
{
  CHECK_THROWS_WITH(parse(R"(
groups:
  a: {count: 1, nic: {bandwidth: 1GBps}}
topology:
  links: [{name: ab, between: [a, bb], bandwidth: 1GBps}]
)"),
                    Catch::Contains("unknown group or switch 'bb'"));
  CHECK_THROWS_WITH(parse("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}"),
                    Catch::Contains("give exactly one of 'backbone'"));
}
