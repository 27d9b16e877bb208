#include "sim/accounting/bill.hpp"
#include "sim/core/level_integral.hpp"
#include "sim/run/bottlenecks.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

// Two hosts of 8 GPUs: 700 W busy and 70 W idle each, the host 400 W idle and 600 W busy.
GroupSpec gpu_group()
{
  GroupSpec g;
  g.name               = "gpu";
  g.count              = 2;
  g.gpu                = GpuSpec{};
  g.gpu->count         = 8;
  g.gpu->tdp_W         = 700;
  g.gpu->idle_W        = 70;
  g.power              = {400, 600};
  g.cost.basis         = "per_gpu_hour";
  g.cost.given         = 2.5;
  g.cost.per_host_hour = 20;
  return g;
}

}  // namespace

TEST_CASE("bill: a host's power is its own plus its GPUs'", "[bill]")
{
  const GroupSpec g = gpu_group();
  CHECK(idle_power_W(g) == 400 + 8 * 70);
  CHECK(busy_power_W(g) == 600 + 8 * 700);
}

TEST_CASE("bill: held hours x price, idle and busy energy, PUE and the price of energy", "[bill]")
{
  const GroupSpec g = gpu_group();
  AccountingSpec a;
  SECTION("idle the whole time: idle power x time")
  {
    const GroupBill b = bill_group(g, {2 * 3600.0, 0, 0}, a);
    CHECK(b.host_hours == 2);
    CHECK(b.cost == 40);
    CHECK(b.energy_kwh == Approx(2 * 960 / 1000.0).epsilon(1e-12));
  }
  SECTION("busy the whole time: busy power x time")
  {
    const GroupBill b = bill_group(g, {3600.0, 3600.0, 3600.0}, a);
    CHECK(b.busy_host_hours == 1);
    CHECK(b.energy_kwh == Approx(6.2).epsilon(1e-12));
  }
  SECTION("busy a quarter of the time: linear between")
  {
    const GroupBill b = bill_group(g, {3600.0, 900.0, 900.0}, a);
    CHECK(b.energy_kwh == Approx(0.96 + 0.25 * (6.2 - 0.96)).epsilon(1e-12));
  }
  SECTION("GPUs at 40% load while busy: their tdp - idle counts for that share")
  {
    const GroupBill b = bill_group(g, {3600.0, 3600.0, 0.4 * 3600.0}, a);
    CHECK(b.gpu_load_hours == Approx(0.4).epsilon(1e-12));
    // 960 W idle + 200 W of the host at work + 0.4 x 8 x 630 W of its GPUs, for an hour.
    CHECK(b.energy_kwh == Approx(0.96 + 0.2 + 0.4 * 8 * 0.63).epsilon(1e-12));
  }
  SECTION("PUE scales the energy, per_kWh adds its price to the cost")
  {
    a.pue             = 1.5;
    a.per_kWh         = 0.1;
    const GroupBill b = bill_group(g, {3600.0, 3600.0, 3600.0}, a);
    CHECK(b.energy_kwh == Approx(9.3).epsilon(1e-12));
    CHECK(b.cost == Approx(20 + 0.93).epsilon(1e-12));
  }
}

TEST_CASE("bill: storage is priced per TB-month of 730 hours", "[bill]")
{
  CHECK(storage_cost(1e12 * 730 * 3600, 20) == Approx(20).epsilon(1e-12));
  CHECK(storage_cost(5e11 * 730 * 3600, 20) == Approx(10).epsilon(1e-12));
}

TEST_CASE("bill: overlapping holds split the time they share evenly", "[bill]")
{
  SECTION("apart: each pays its own")
  {
    const auto paid = shared_seconds({{0, 10}, {20, 25}});
    CHECK(paid == std::vector<double>{10, 5});
  }
  SECTION("overlapping: the 5 s both hold are halved")
  {
    const auto paid = shared_seconds({{0, 10}, {5, 20}});
    CHECK(paid[0] == Approx(7.5));
    CHECK(paid[1] == Approx(12.5));
  }
  SECTION("three at once, one nested")
  {
    const auto paid = shared_seconds({{0, 30}, {10, 20}, {10, 20}});
    CHECK(paid[0] == Approx(20 + 10 / 3.0));
    CHECK(paid[1] == Approx(10 / 3.0));
    CHECK(paid[0] + paid[1] + paid[2] == Approx(30));
  }
  SECTION("an empty hold pays nothing")
  {
    CHECK(shared_seconds({{4, 4}, {0, 10}}) == std::vector<double>{0, 10});
  }
}

TEST_CASE("level integral: the area under a level that moves in steps", "[bill]")
{
  LevelIntegral stored;
  stored.change(0, 100);
  stored.change(10, 50);    // 100 x 10
  stored.change(20, -150);  // 150 x 10
  CHECK(stored.level() == 0);
  CHECK(stored.integral(100) == 2500);
  LevelIntegral later;
  later.change(5, 10);
  CHECK(later.integral(7) == 20);
  CHECK(later.integral(5) == 0);
}

TEST_CASE("bottlenecks: shares of the charged seconds, largest first, ties by name", "[bill]")
{
  const auto ranked = ranked_shares({{"b disks", 1}, {"a queue", 3}, {"c NIC", 1}});
  REQUIRE(ranked.size() == 3);
  CHECK(ranked[0] == std::pair<std::string, double>{"a queue", 0.6});
  CHECK(ranked[1].first == "b disks");
  CHECK(ranked[2].first == "c NIC");
  CHECK(ranked[1].second == Approx(0.2));
  CHECK(ranked_shares({}).empty());
  CHECK(ranked_shares({{"x", 0}}).empty());
}

TEST_CASE("network bill: priced directions only, bytes / 1e9 x price", "[bill]")
{
  AccountingSpec a;
  a.network                                                         = {{"gpu", "oss", 0.02}, {"gpu", "gpu", 0.5}};
  const std::map<std::pair<std::string, std::string>, double> bytes = {
      {{"gpu", "oss"}, 3e9}, {{"oss", "gpu"}, 7e9}, {{"gpu", "gpu"}, 1e8}};
  const std::vector<NetworkBill> lines = bill_network(bytes, a);
  REQUIRE(lines.size() == 2);  // oss -> gpu has no price
  CHECK(lines[0].from == "gpu");
  CHECK(lines[0].to == "oss");
  CHECK(lines[0].GB == 3);
  CHECK(lines[0].cost == Approx(0.06).epsilon(1e-15));
  CHECK(lines[1].to == "gpu");
  CHECK(lines[1].cost == Approx(0.05).epsilon(1e-15));
  CHECK(bill_network({}, a).empty());  // a priced pair nothing crossed: no line
}
