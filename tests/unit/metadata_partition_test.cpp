#include "sim/core/registry.hpp"
#include "sim/svc/metadata_partition.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace llsim;

TEST_CASE("metadata partitioning: hashed spreads paths, single keeps them on the first server", "[metadata_partition]")
{
  test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  auto hashed = Registry<MetadataPartition>::create(w.yaml("{impl: hashed}"), {4});
  auto single = Registry<MetadataPartition>::create(w.yaml("{impl: single}"), {4});
  std::vector<int> per_server(4, 0);
  for (int i = 0; i < 4000; ++i) {
    const std::string path = "/ckpt/" + std::to_string(i);
    per_server[hashed->server_of(path)] += 1;
    CHECK(single->server_of(path) == 0);
    CHECK(hashed->server_of(path) == hashed->server_of(path));
  }
  for (int n : per_server)
    CHECK(n == Approx(1000).epsilon(0.1));
}
