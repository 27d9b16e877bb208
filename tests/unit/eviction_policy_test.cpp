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
    lru->inserted(k, 0);
  lru->used("a");
  const auto all = [](const std::string&) { return true; };
  CHECK(lru->victim(all) == "b");
  CHECK(lru->victim([](const std::string& k) { return k != "b"; }) == "c");  // b is being read
  lru->removed("b");
  CHECK(lru->victim(all) == "c");
  auto none = Registry<EvictionPolicy>::create(w.yaml("{impl: none}"), {});
  none->inserted("a", 0);
  CHECK(none->victim(all).empty());
}

TEST_CASE("eviction: lfu takes the least often used block, the oldest among equals", "[eviction_policy]")
{
  test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  auto lfu = Registry<EvictionPolicy>::create(w.yaml("{impl: lfu}"), {});
  for (const char* k : {"a", "b", "c"})
    lfu->inserted(k, 0);
  lfu->used("a");
  lfu->used("a");
  lfu->used("b");
  const auto all = [](const std::string&) { return true; };
  CHECK(lfu->victim(all) == "c");
  lfu->used("c");  // b and c: 2 uses each; b's last use is older
  CHECK(lfu->victim(all) == "b");
  CHECK(lfu->victim([](const std::string& k) { return k != "b"; }) == "c");
  lfu->removed("b");
  lfu->removed("c");
  CHECK(lfu->victim(all) == "a");
}

TEST_CASE("eviction: length_aware takes the deepest block, the oldest among equal depths", "[eviction_policy]")
{
  test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  auto la = Registry<EvictionPolicy>::create(w.yaml("{impl: length_aware}"), {});
  la->inserted("root", 0);
  la->inserted("deep1", 7);
  la->inserted("deep2", 7);
  la->inserted("mid", 3);
  const auto all = [](const std::string&) { return true; };
  CHECK(la->victim(all) == "deep1");
  la->used("deep1");
  CHECK(la->victim(all) == "deep2");
  la->removed("deep2");
  la->removed("deep1");
  CHECK(la->victim(all) == "mid");
  CHECK(la->victim([](const std::string& k) { return k != "mid"; }) == "root");
}
