#include "sim/ingest/dir_cache.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("directory cache: least recently used goes first, entries expire after ttl", "[dir_cache]")
{
  DirCache cache(2, 10);
  cache.insert(1, 0);
  cache.insert(2, 0);
  CHECK(cache.holds(1, 1));  // 1 is now the most recently used
  cache.insert(3, 1);        // evicts 2
  CHECK_FALSE(cache.holds(2, 1));
  CHECK(cache.holds(1, 2));
  CHECK(cache.holds(3, 2));
  CHECK_FALSE(cache.holds(3, 11.5));  // resolved at 1, trusted for 10 s
  DirCache none(0, 10);
  none.insert(1, 0);
  CHECK_FALSE(none.holds(1, 0));
}
