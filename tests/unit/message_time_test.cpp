#include "sim/platform/message_time.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("message time: route latencies plus the bytes at the narrowest bandwidth", "[message_time]")
{
  test::World w("groups: {a: {count: 2, nic: {bandwidth: 1GBps, latency: 5us}}, b: {count: 1, nic: {bandwidth: 2GBps, "
                "latency: 1us}}}\nbackbone: {bandwidth: 10GBps, latency: 10us}");
  const HostId a0 = w.platform->find("a")->host(0), a1 = w.platform->find("a")->host(1);
  const HostId b0 = w.platform->find("b")->host(0);
  CHECK(message_time(*w.platform, a0, b0, 1e6) == Approx(16e-6 + 1e6 / 1e9));
  CHECK(message_time(*w.platform, a0, a1, 1e6) == Approx(10e-6 + 1e6 / 1e9));  // same group: no backbone
  CHECK(message_time(*w.platform, a0, a0, 1e6) == 0);
  test::World lv("groups: {a: {count: 1, nic: {bandwidth: 1GBps, latency: 5us}}, b: {count: 1, nic: {bandwidth: 2GBps, "
                 "latency: 1us}}}\nbackbone: {bandwidth: 10GBps, latency: 10us}\nnetwork: {model: lv08}");
  CHECK(message_time(*lv.platform, 0, 1, 1e6) == Approx(16e-6 * 13.01 + 1e6 / 0.97e9));
}
