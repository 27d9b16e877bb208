#include "sim/svc/files/client_page_cache.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {
using Gaps = std::vector<std::pair<double, double>>;
}

TEST_CASE("page cache: a read asks the servers only for the ranges its host lacks", "[client_page_cache]")
{
  ClientPageCache cache(1000);
  CHECK(cache.missing(0, 7, 0, 100) == Gaps{{0, 100}});
  cache.keep(0, 7, 100, 100);  // [100, 200)
  cache.keep(0, 7, 300, 50);   // [300, 350)
  CHECK(cache.missing(0, 7, 100, 100).empty());
  CHECK(cache.missing(0, 7, 0, 400) == Gaps{{0, 100}, {200, 100}, {350, 50}});
  CHECK(cache.missing(0, 7, 150, 100) == Gaps{{200, 50}});
  CHECK(cache.missing(1, 7, 100, 100) == Gaps{{100, 100}});  // another host holds nothing
  cache.keep(0, 7, 150, 200);                                // bridges both ranges: [100, 350)
  CHECK(cache.held_B(0) == 250);
  CHECK(cache.missing(0, 7, 100, 250).empty());
}

TEST_CASE("page cache: the least recently used files leave a full host first, whole", "[client_page_cache]")
{
  ClientPageCache cache(300);
  cache.keep(0, 1, 0, 100);
  cache.keep(0, 2, 0, 100);
  cache.keep(0, 3, 0, 100);
  CHECK(cache.missing(0, 1, 0, 100).empty());  // file 1 is now the most recently used
  cache.keep(0, 4, 0, 100);                    // over 300: file 2 leaves
  CHECK(cache.held_B(0) == 300);
  CHECK(cache.missing(0, 2, 0, 100) == Gaps{{0, 100}});
  CHECK(cache.missing(0, 1, 0, 100).empty());
  CHECK(cache.missing(0, 3, 0, 100).empty());
  cache.keep(0, 5, 0, 250);  // leaves room for 50 only: files 4, 1 and 3 go
  CHECK(cache.held_B(0) == 250);
  cache.keep(0, 6, 0, 301);  // larger than the cache: not kept, nothing else lost
  CHECK(cache.held_B(0) == 250);
  cache.keep(0, 5, 250, 100);  // file 5 alone over the cache: only its new range stays
  CHECK(cache.held_B(0) == 100);
  CHECK(cache.missing(0, 5, 0, 350) == Gaps{{0, 250}});
}

TEST_CASE("page cache: a write makes other hosts' copies stale; a removed file is forgotten", "[client_page_cache]")
{
  ClientPageCache cache(1000);
  cache.keep(0, 1, 0, 100);
  cache.keep(1, 1, 0, 100);
  cache.written(1, 1, 50, 100);  // host 1 now holds [0, 150), host 0 nothing of file 1
  CHECK(cache.missing(0, 1, 0, 100) == Gaps{{0, 100}});
  CHECK(cache.missing(1, 1, 0, 150).empty());
  CHECK(cache.held_B(0) == 0);
  cache.forget(1);
  CHECK(cache.held_B(1) == 0);
  CHECK(cache.missing(1, 1, 0, 10) == Gaps{{0, 10}});
  ClientPageCache none(0);
  none.keep(0, 1, 0, 10);
  CHECK_FALSE(none.enabled());
  CHECK(none.held_B(0) == 0);
}

TEST_CASE("page cache: a read of bytes in flight waits for that read instead of asking again", "[client_page_cache]")
{
  ClientPageCache cache(1000);
  cache.keep(0, 1, 0, 100);
  const auto first = cache.plan_read(0, 1, 0, 300, 1);  // asks for [100, 300)
  CHECK(first.gaps == Gaps{{100, 200}});
  CHECK(first.awaited.empty());
  const auto second = cache.plan_read(0, 1, 50, 400, 2);  // [300, 450) is left to ask for
  CHECK(second.gaps == Gaps{{300, 150}});
  CHECK(second.awaited == std::vector<uint64_t>{1});
  CHECK(cache.plan_read(1, 1, 0, 100, 3).awaited.empty());  // another host's reads are its own
  cache.read_over(0, 1, 1, first, 0, 300, false);           // failed: nothing kept, nothing in flight
  CHECK(cache.held_B(0) == 100);
  const auto third = cache.plan_read(0, 1, 0, 450, 4);
  CHECK(third.gaps == Gaps{{100, 200}});
  CHECK(third.awaited == std::vector<uint64_t>{2});
  cache.read_over(0, 1, 2, second, 50, 400, true);
  cache.read_over(0, 1, 4, third, 0, 450, true);
  CHECK(cache.held_B(0) == 450);
  CHECK(cache.plan_read(0, 1, 0, 450, 5).gaps.empty());
}

TEST_CASE("page cache: a read in flight of a file written or removed meanwhile keeps nothing", "[client_page_cache]")
{
  ClientPageCache cache(1000);
  const auto planned = cache.plan_read(0, 1, 0, 100, 1);
  cache.written(1, 1, 0, 100);  // another host rewrites the file while host 0 reads it
  cache.read_over(0, 1, 1, planned, 0, 100, true);
  CHECK(cache.held_B(0) == 0);
  const auto again = cache.plan_read(0, 1, 0, 100, 2);
  cache.forget(1);
  cache.read_over(0, 1, 2, again, 0, 100, true);
  CHECK(cache.held_B(0) == 0);
  const auto later = cache.plan_read(0, 2, 0, 100, 3);  // another file is untouched
  cache.read_over(0, 2, 3, later, 0, 100, true);
  CHECK(cache.held_B(0) == 100);
}

TEST_CASE("page cache: a host that went down holds nothing; sub-byte slivers count as held", "[client_page_cache]")
{
  ClientPageCache cache(1000);
  cache.keep(0, 1, 0, 100);
  cache.keep(0, 2, 0, 100);
  cache.keep(1, 1, 0, 100);
  cache.drop_host(0);
  CHECK(cache.held_B(0) == 0);
  CHECK(cache.held_B(1) == 100);
  CHECK(cache.missing(0, 1, 0, 100) == Gaps{{0, 100}});
  // Ranges that miss each other by rounding: [0, 100 - 1e-9) and [100 + 1e-9, 200) held.
  cache.keep(2, 3, 0, 100 - 1e-9);
  cache.keep(2, 3, 100 + 1e-9, 100 - 1e-9);
  CHECK(cache.missing(2, 3, 0, 200).empty());
  CHECK(cache.missing(2, 3, 50, 250) == Gaps{{200, 100}});
  cache.keep(2, 4, 10, 10);
  CHECK(cache.missing(2, 4, 0, 30) == Gaps{{0, 10}, {20, 10}});
  cache.keep(2, 4, 20.5, 9);  // leaves [20, 20.5) and [29.5, 30): two slivers, dropped
  CHECK(cache.missing(2, 4, 0, 30) == Gaps{{0, 10}});
}
