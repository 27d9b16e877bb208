#include "sim/core/errors.hpp"
#include "sim/faults/host_faults.hpp"
#include "temp_file.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace llsim;

namespace {

const char* const kPlatform =
    "groups: {c: {count: 4, nic: {bandwidth: 1GBps}}, s: {count: 2, nic: {bandwidth: 1GBps}}}\n"
    "backbone: {bandwidth: 1GBps}";

}  // namespace

TEST_CASE("host faults: a trace, host by host", "[fault_model]")
{
  const auto file = test::write_temp_file("faults.csv", "host,down_at,up_at\nc-1,50,60\nc-1,10,20\nc-3,5,5\n");
  test::World w(kPlatform, "{}", "[{group: c, impl: trace, file: " + file + "}]");
  HostFaults& f   = *w.faults;
  const HostId c1 = w.platform->find("c")->host(1);
  CHECK(f.may_fail(c1));
  CHECK_FALSE(f.may_fail(w.platform->find("s")->host(0)));
  CHECK(f.outage_at(c1, 0).down_s == 10);  // sorted
  CHECK(f.is_down(c1, 15));
  CHECK_FALSE(f.is_down(c1, 20));  // [down, up)
  CHECK(f.up_at(c1, 15) == 20);
  CHECK(f.up_at(c1, 25) == 25);
  CHECK(f.next_failure(c1, 15) == 50);  // starts at or after
  CHECK(f.next_failure(c1, 50) == 50);
  CHECK(std::isinf(f.next_failure(c1, 51)));
  // MTBF: the trace's last failure (50 s) over the host's outages.
  CHECK(f.mtbf_s(c1) == 25);
  CHECK(std::isinf(f.mtbf_s(w.platform->find("c")->host(0))));
  GroupFailures job(f, w.platform->find("c")->first_host, 4);
  CHECK(job.next(0).first == 5);
  CHECK(job.next(0).second == w.platform->find("c")->host(3));
  CHECK(job.next(6).first == 10);
  CHECK(job.mtbf_s() == Approx(1 / (1.0 / 25 + 1.0 / 50)));
}

TEST_CASE("host faults: trace errors name the file and line", "[fault_model]")
{
  const auto unknown = test::write_temp_file("unknown.csv", "host,down_at,up_at\nc-9,1,2\n");
  CHECK_THROWS_WITH(test::World(kPlatform, "{}", "[{group: c, impl: trace, file: " + unknown + "}]"),
                    Catch::Contains("unknown.csv:2") && Catch::Contains("'c-9' is not in group 'c'"));
  const auto overlap = test::write_temp_file("overlap.csv", "host,down_at,up_at\nc-0,1,10\nc-0,5,12\n");
  CHECK_THROWS_WITH(test::World(kPlatform, "{}", "[{group: c, impl: trace, file: " + overlap + "}]"),
                    Catch::Contains("overlap.csv:3") && Catch::Contains("overlaps"));
  CHECK_THROWS_WITH(test::World(kPlatform, "{}", "[{group: c, impl: none}, {group: c, impl: none}]"),
                    Catch::Contains("already has a fault model"));
  CHECK_THROWS_WITH(test::World(kPlatform, "{}", "[{group: x, impl: none}]"),
                    Catch::Contains("no platform group named 'x'"));
}

TEST_CASE("host faults: exponential up times, each host its own stream", "[fault_model]")
{
  const std::string model = "[{group: c, impl: exponential, mtbf: 1h, downtime: 10min}]";
  test::World a(kPlatform, "{}", model), b(kPlatform, "{}", model);
  const HostId c0 = a.platform->find("c")->host(0), c1 = a.platform->find("c")->host(1);
  // The same seed gives the same outages; two hosts have different ones.
  CHECK(a.faults->outage_at(c0, 0).down_s == b.faults->outage_at(c0, 0).down_s);
  CHECK(a.faults->outage_at(c0, 0).down_s != a.faults->outage_at(c1, 0).down_s);
  // Asking about host 1 first changes nothing for host 0.
  (void)b.faults->next_failure(c1, 1e6);
  CHECK(a.faults->next_failure(c0, 5e5) == b.faults->next_failure(c0, 5e5));
  // Up times average the MTBF; each downtime is 10 min.
  double t = 0, up = 0;
  int n = 0;
  for (; n < 2000; ++n) {
    const Outage o = a.faults->outage_at(c0, t);
    CHECK(o.up_s - o.down_s == Approx(600));
    up += o.down_s - t;
    t = o.up_s;
  }
  CHECK(up / n == Approx(3600).epsilon(0.06));
  CHECK(a.faults->mtbf_s(c0) == 3600);
  CHECK(GroupFailures(*a.faults, a.platform->find("c")->first_host, 4).mtbf_s() == Approx(900));
}
