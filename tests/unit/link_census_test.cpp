#include "sim/sg/link_census.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

// Eight senders of 10 GB/s NICs, two receivers, a 12 GB/s backbone: nominally wider than a NIC.
const char* const kStar = "groups: {s: {count: 8, nic: {bandwidth: 10GBps}}, r: {count: 2, nic: {bandwidth: "
                          "10GBps}}}\nbackbone: {bandwidth: 12GBps}";

}  // namespace

TEST_CASE("link census: one flow alone is limited by its NIC; many by the backbone they share", "[link_census]")
{
  test::World w(kStar);
  LinkCensus census(*w.platform);
  const HostId r0 = w.platform->find("r")->host(0);
  census.enter(0, r0);
  CHECK(census.narrowest(0, r0).resource == wait_resource("network: NIC"));
  CHECK(census.narrowest(0, r0).Bps == Approx(10e9));
  for (HostId s = 1; s < 8; ++s)
    census.enter(s, w.platform->find("r")->host(s % 2));
  // The backbone's 12 GB/s over 8 flows; receiver 0's NIC carries 4 of them (2.5 GB/s each).
  CHECK(census.narrowest(0, r0).resource == wait_resource("network: backbone"));
  CHECK(census.narrowest(0, r0).Bps == Approx(1.5e9));
  for (HostId s = 1; s < 8; ++s)
    census.leave(s, w.platform->find("r")->host(s % 2));
  CHECK(census.narrowest(0, r0).resource == wait_resource("network: NIC"));
}

TEST_CASE("link census: flows inside a group cross no backbone", "[link_census]")
{
  test::World w(kStar);
  LinkCensus census(*w.platform);
  for (HostId s = 1; s < 8; ++s)
    census.enter(s, 0);  // seven flows into sender 0's NIC
  CHECK(census.narrowest(1, 0).resource == wait_resource("network: NIC"));
  CHECK(census.narrowest(1, 0).Bps == Approx(10e9 / 7));
}

TEST_CASE("link census: counted flows keep the smallest share they saw and leave on destruction", "[link_census]")
{
  test::World w(kStar);
  LinkCensus census(*w.platform);
  const HostId r0 = w.platform->find("r")->host(0);
  {
    CountedFlows mine(census);
    mine.add(0, r0);
    mine.look_all();
    {
      CountedFlows others(census);
      for (HostId s = 1; s < 8; ++s)
        others.add(s, w.platform->find("r")->host(s % 2));
      mine.look_all();  // the backbone is crowded now
    }                   // the others leave
    mine.end(0);
    CHECK(mine.limit() == wait_resource("network: backbone"));
  }
  CHECK(census.narrowest(0, r0).Bps == Approx(10e9));  // nothing is left counted
  CountedFlows none(census);
  CHECK(none.limit() == wait_resource("network: NIC"));
}
