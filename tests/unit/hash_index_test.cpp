#include "sim/core/hash_index.hpp"
#include "sim/core/random.hpp"

#include <catch2/catch.hpp>

#include <unordered_map>

using namespace llsim;

TEST_CASE("hash index: agrees with std::unordered_map through inserts and erases", "[hash_index]")
{
  HashIndex<int> index;
  std::unordered_map<uint64_t, int> reference;
  Rng rng(7);
  for (int step = 0; step < 200000; ++step) {
    // Few distinct keys, so erases hit and probe chains wrap around the table.
    const uint64_t key = rng.bits() % 3000;
    if (rng.uniform() < 0.4) {
      index.erase(key);
      reference.erase(key);
    } else {
      index[key] += 1;
      reference[key] += 1;
    }
  }
  CHECK(index.size() == reference.size());
  for (uint64_t key = 0; key < 3000; ++key) {
    const int* found = index.find(key);
    const auto it    = reference.find(key);
    REQUIRE((found != nullptr) == (it != reference.end()));
    if (found)
      CHECK(*found == it->second);
  }
}
