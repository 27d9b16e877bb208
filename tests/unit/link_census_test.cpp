#include "sim/sg/link_census.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

// Eight senders of 10 GB/s NICs, two receivers, a 12 GB/s backbone: nominally wider than a NIC.
const char* const kStar = "groups: {s: {count: 8, nic: {bandwidth: 10GBps}}, r: {count: 2, nic: {bandwidth: "
                          "10GBps}}}\nbackbone: {bandwidth: 12GBps}";

// The share of each link of a route: sender NIC, backbone, receiver NIC.
std::vector<double> shares(const LinkCensus& census, HostId from, HostId to)
{
  std::vector<double> out;
  for (const LinkCensus::Share& s : census.shares(from, to))
    out.push_back(s.Bps);
  return out;
}

}  // namespace

TEST_CASE("link census: a link's share is its bandwidth over the flows counted on it", "[link_census]")
{
  test::World w(kStar);
  LinkCensus census(*w.platform);
  const HostId r0 = w.platform->find("r")->host(0);
  census.enter(0, r0);
  CHECK(shares(census, 0, r0) == std::vector<double>{10e9, 12e9, 10e9});
  for (HostId s = 1; s < 8; ++s)
    census.enter(s, w.platform->find("r")->host(s % 2));
  // 8 flows on the backbone; receiver 0's NIC carries 4 of them.
  CHECK(shares(census, 0, r0) == std::vector<double>{10e9, 1.5e9, 2.5e9});
  CHECK(census.shares(0, r0)[1].resource == wait_resource("network: backbone"));
  for (HostId s = 1; s < 8; ++s)
    census.leave(s, w.platform->find("r")->host(s % 2));
  CHECK(shares(census, 0, r0) == std::vector<double>{10e9, 12e9, 10e9});
  CHECK(shares(census, 1, 0) == std::vector<double>{10e9, 10e9});  // inside a group: no backbone
}

TEST_CASE("link census: a flow is charged to the link whose share is nearest the rate it achieved", "[link_census]")
{
  test::World w(kStar);
  LinkCensus census(*w.platform);
  const HostId r0 = w.platform->find("r")->host(0);
  // Every sender to a receiver, alternately: 8 flows on the backbone.
  const auto eight_flows = [&](CountedFlows& flows) {
    for (HostId s = 0; s < 8; ++s)
      flows.add(s, w.platform->find("r")->host(s % 2), 0);
    flows.look_all();
  };
  SECTION("eight flows at 1.5 GB/s: the backbone held them")
  {
    CountedFlows all(census);
    eight_flows(all);
    all.end(0, 1.5e9, 1);
    CHECK(all.limit() == wait_resource("network: backbone"));
  }
  SECTION("one flow at 10 GB/s beside seven the backbone's share says are slow: its NIC held it")
  {
    CountedFlows mine(census), others(census);
    mine.add(0, r0, 0);
    for (HostId s = 1; s < 8; ++s)
      others.add(s, w.platform->find("r")->host(1), 0);
    mine.end(0, 10e9, 1);
    CHECK(mine.limit() == wait_resource("network: NIC"));
  }
  SECTION("a flow that moved nothing in no time is charged to the narrowest link")
  {
    CountedFlows all(census);
    eight_flows(all);
    all.end(3, 0, 0);
    CHECK(all.limit() == wait_resource("network: backbone"));
  }
  CHECK(shares(census, 0, r0) == std::vector<double>{10e9, 12e9, 10e9});  // every flow left, ended or not
  CountedFlows none(census);
  CHECK(none.limit() == wait_resource("network: NIC"));
}
