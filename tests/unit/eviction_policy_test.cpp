#include "sim/core/registry.hpp"
#include "sim/svc/eviction_policy.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("eviction: lru takes the least recently used evictable block; none takes nothing", "[eviction_policy]")
{
  test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  auto lru = Registry<EvictionPolicy>::create(w.yaml("{impl: lru}"), {});
  for (const char* k : {"a", "b", "c"})
    lru->inserted(k);
  lru->used("a");
  const auto all = [](const std::string&) { return true; };
  CHECK(lru->victim(all) == "b");
  CHECK(lru->victim([](const std::string& k) { return k != "b"; }) == "c");  // b is being read
  lru->removed("b");
  CHECK(lru->victim(all) == "c");
  auto none = Registry<EvictionPolicy>::create(w.yaml("{impl: none}"), {});
  none->inserted("a");
  CHECK(none->victim(all).empty());
}
