#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/mw/availability.hpp"
#include "temp_file.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace llsim;

namespace {

const char* const kPlatform = R"(
groups:
  workers: {count: 3, nic: {bandwidth: 1GBps}}
backbone: {bandwidth: 1GBps}
)";

struct Fixture {
  std::shared_ptr<SourceInfo> source = std::make_shared<SourceInfo>();
  PlatformSpec platform;
  Fixture(const std::string& file = "a.yaml")
  {
    source->file = file;
    platform     = parse_platform(Params(YamlRef(YAML::Load(kPlatform), "platform", source), platform_params()));
  }
  std::unique_ptr<AvailabilityModel> make(const std::string& yaml)
  {
    return Registry<AvailabilityModel>::create(YamlRef(YAML::Load(yaml), "availability", source),
                                               {platform, *platform.find("workers")});
  }
};

}  // namespace

TEST_CASE("availability: always never fails", "[availability]")
{
  Fixture f;
  Rng rng(1);
  CHECK(std::isinf(f.make("{impl: always}")->next_outage(0, 0, rng).down_s));
}

TEST_CASE("availability: exponential and weibull renewal processes", "[availability]")
{
  Fixture f;
  const auto exponential = f.make("{impl: exponential, mtbf: 6h, downtime: 30min}");
  Rng rng(5);
  double after = 0, up_total = 0;
  constexpr int n = 20000;
  for (int i = 0; i < n; ++i) {
    const Outage o = exponential->next_outage(0, after, rng);
    REQUIRE(o.down_s >= after);
    REQUIRE(o.up_s - o.down_s == Approx(1800));
    up_total += o.down_s - after;
    after = o.up_s;
  }
  CHECK(up_total / n == Approx(6 * 3600).epsilon(0.02));

  const auto weibull = f.make("{impl: weibull, scale: 1h, shape: 0.7, downtime: {dist: constant, value: 1min}}");
  up_total = 0;
  after    = 0;
  for (int i = 0; i < n; ++i) {
    const Outage o = weibull->next_outage(0, after, rng);
    up_total += o.down_s - after;
    after = o.up_s;
  }
  CHECK(up_total / n == Approx(3600 * std::tgamma(1 + 1 / 0.7)).epsilon(0.03));
  CHECK_THROWS_WITH(f.make("{impl: exponential, mtbf: 0s}"), Catch::Contains("mtbf") && Catch::Contains("> 0"));
}

TEST_CASE("availability: trace replays outages per host, in time order", "[availability]")
{
  const std::string file = test::write_temp_file("outages.csv", "host,down_at,up_at\nworkers-2,500,600\nworkers-2,100,200\n");
  Fixture f(file);
  const auto trace = f.make("{impl: trace, file: outages.csv}");
  Rng rng(1);
  CHECK(trace->next_outage(2, 0, rng).down_s == 100);
  CHECK(trace->next_outage(2, 200, rng).down_s == 500);
  CHECK(std::isinf(trace->next_outage(2, 600, rng).down_s));
  CHECK(std::isinf(trace->next_outage(0, 0, rng).down_s));
}

TEST_CASE("availability: trace errors name the line", "[availability]")
{
  const std::string overlap = test::write_temp_file("overlap.csv", "host,down_at,up_at\nworkers-1,100,300\nworkers-1,200,250\n");
  CHECK_THROWS_WITH(Fixture(overlap).make("{impl: trace, file: overlap.csv}"),
                    Catch::Contains("overlap.csv:3: outage of workers-1 overlaps"));
  const std::string reversed = test::write_temp_file("reversed.csv", "host,down_at,up_at\nworkers-0,100,50\n");
  CHECK_THROWS_WITH(Fixture(reversed).make("{impl: trace, file: reversed.csv}"),
                    Catch::Contains("reversed.csv:2: expected 0 <= down_at <= up_at"));
  const std::string beyond = test::write_temp_file("beyond.csv", "host,down_at,up_at\nworkers-3,1,2\n");
  CHECK_THROWS_WITH(Fixture(beyond).make("{impl: trace, file: beyond.csv}"),
                    Catch::Contains("beyond.csv:2: host 'workers-3' is not a worker"));
}
