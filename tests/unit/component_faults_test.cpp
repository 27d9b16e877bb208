#include "sim/core/errors.hpp"
#include "sim/faults/component_faults.hpp"
#include "sim/faults/host_faults.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>

using namespace llsim;

namespace {

struct Constant : Distribution {
  double v;
  explicit Constant(double value)
      : v(value)
  {}
  double sample(Rng&) const override { return v; }
  double mean() const override { return v; }
  double min_value() const override { return v; }
};

const char* const kPlatform = "groups: {c: {count: 8, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}";

ComponentSpec component(const std::string& name, FaultClass c, double mtbf_s, double repair_s, int64_t count = 1,
                        int64_t shared_by = 1)
{
  ComponentSpec s;
  s.cause     = {name, c};
  s.count     = count;
  s.shared_by = shared_by;
  s.uptime    = exponential_distribution(mtbf_s);
  s.repair    = std::make_shared<Constant>(repair_s);
  return s;
}

}  // namespace

TEST_CASE("component faults: a host is down while any unit is, overlaps merge", "[fault_model]")
{
  ComponentFaults f({component("gpu", FaultClass::Gpu, 100, 50, 8), component("nic", FaultClass::Nic, 300, 20)}, 7, 2);
  double previous_up = 0;
  for (size_t k = 0; k < 2000; ++k) {
    const Outage o = f.outage(0, k);
    REQUIRE(o.down_s > previous_up);  // merged: the next outage starts after the last ended
    REQUIRE(o.up_s >= o.down_s + (o.cause == 0 ? 50 : 20) - 1e-9);
    previous_up = o.up_s;
  }
  CHECK(f.host_rate() == Approx(8.0 / 100 + 1.0 / 300));
  CHECK_THROWS(f.outage(0, 5));  // asked out of order
}

TEST_CASE("component faults: outages depend on the key, not on the order hosts are asked", "[fault_model]")
{
  const auto specs = std::vector<ComponentSpec>{component("gpu", FaultClass::Gpu, 1000, 10, 4),
                                                component("switch", FaultClass::Switch, 500, 5, 1, 4)};
  ComponentFaults a(specs, 3, 8), b(specs, 3, 8), other_key(specs, 4, 8);
  (void)b.outage(4, 0);  // host 4 shares host 5's switch
  (void)b.outage(4, 1);
  (void)b.outage(7, 0);
  for (size_t k = 0; k < 20; ++k) {
    const Outage x = a.outage(5, k), y = b.outage(5, k);
    CHECK(x.down_s == y.down_s);
    CHECK(x.up_s == y.up_s);
  }
  CHECK(a.outage(0, 0).down_s != other_key.outage(0, 0).down_s);
}

TEST_CASE("component faults: a shared switch takes down every host under it at once", "[fault_model]")
{
  // Only a switch over 4 hosts: hosts 0-3 share every outage, hosts 4-7 have others.
  ComponentFaults f({component("leaf", FaultClass::Switch, 100, 10, 1, 4)}, 11, 8);
  for (size_t k = 0; k < 50; ++k) {
    const Outage h0 = f.outage(0, k), h3 = f.outage(3, k), h4 = f.outage(4, k);
    CHECK(h0.down_s == h3.down_s);
    CHECK(h0.up_s == h3.up_s);
    CHECK(h0.down_s != h4.down_s);
  }
  // A set of hosts counts each switch once: hosts 2-5 stand under two switches.
  CHECK(f.set_rate(2, 4) == Approx(2.0 / 100));
  CHECK(f.set_rate(0, 8) == Approx(2.0 / 100));
  CHECK(f.set_rate(0, 1) == Approx(1.0 / 100));
}

TEST_CASE("component faults: rates add up and each class takes its share", "[fault_model]")
{
  // λ: gpu 8/400, hbm 4/400, software 1/100: Σλ = 0.04 per s, shares 1/2, 1/4, 1/4. Repairs are
  // short (0.1 s against 25 s between failures), so the host is up 99.6% of the time.
  ComponentFaults f({component("gpu", FaultClass::Gpu, 400, 0.1, 8), component("hbm", FaultClass::Hbm, 400, 0.1, 4),
                     component("software", FaultClass::Software, 100, 0.1)},
                    5, 1);
  std::map<uint32_t, int> by_cause;
  const int n = 20000;
  double last = 0;
  for (int k = 0; k < n; ++k) {
    const Outage o = f.outage(0, static_cast<size_t>(k));
    by_cause[o.cause] += 1;
    last = o.down_s;
  }
  CHECK(n / last == Approx(0.04).epsilon(0.03));  // σ of a Poisson count of 20,000: 0.7%
  CHECK(by_cause[0] / double(n) == Approx(0.5).epsilon(0.03));
  CHECK(by_cause[1] / double(n) == Approx(0.25).epsilon(0.03));
  CHECK(by_cause[2] / double(n) == Approx(0.25).epsilon(0.03));
}

TEST_CASE("component faults through the fault model: causes, classes and the job MTBF", "[fault_model]")
{
  test::World w(kPlatform, "{}",
                "[{group: c, impl: components, components: [{class: gpu, count: 8, mtbf: 800s}, "
                "{class: switch, name: leaf, shared_by: 4, mtbf: 100s, repair: 5s}]}]");
  const HostId c0 = w.platform->find("c")->host(0);
  const Outage o  = w.faults->outage_at(c0, 0);
  const auto& c   = w.faults->cause(c0, o);
  CHECK((c.name == "gpu" || c.name == "leaf"));
  CHECK(c.fault_class == (c.name == "gpu" ? FaultClass::Gpu : FaultClass::Switch));
  CHECK(w.faults->mtbf_s(c0) == Approx(1 / (8.0 / 800 + 1.0 / 100)));
  // The job of 8 hosts: 64 GPUs and two switches.
  CHECK(GroupFailures(*w.faults, w.platform->find("c")->first_host, 8).mtbf_s() ==
        Approx(1 / (64.0 / 800 + 2.0 / 100)));
}

TEST_CASE("component faults: bad components are located", "[fault_model]")
{
  const auto load = [](const std::string& components) {
    test::World w(kPlatform, "{}", "[{group: c, impl: components, components: " + components + "}]");
  };
  CHECK_THROWS_WITH(load("[{class: gpus, mtbf: 1h}]"),
                    Catch::Contains("unknown class 'gpus'") && Catch::Contains("world.yaml"));
  CHECK_THROWS_WITH(load("[{class: gpu, mtbf: 1h, repair: -1s}]"), Catch::Contains("repair"));
  CHECK_THROWS_WITH(load("[{class: gpu, mtbf: 1h, uptime: 1h}]"), Catch::Contains("exactly one of 'mtbf'"));
  CHECK_THROWS_WITH(load("[{class: gpu}]"), Catch::Contains("exactly one of 'mtbf'"));
  CHECK_THROWS_WITH(load("[]"), Catch::Contains("non-empty list"));
  CHECK_THROWS_WITH(load("[{class: maintenance, mtbf: 1h}]"), Catch::Contains("unknown class 'maintenance'"));
}
