#include "sim/svc/files/stripe_layout.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("striping: the bytes of a range on each target", "[stripe_layout]")
{
  StripeLayout l{2, 3, 1, 8, 100};  // targets 2, 3, 4; 100-byte stripes
  using Parts = std::vector<std::pair<size_t, double>>;
  CHECK(stripe_parts(l, 0, 300) == Parts{{2, 100}, {3, 100}, {4, 100}});
  CHECK(stripe_parts(l, 50, 100) == Parts{{2, 50}, {3, 50}});  // inside two stripes
  CHECK(stripe_parts(l, 250, 200) == Parts{{2, 100}, {3, 50}, {4, 50}});
  CHECK(stripe_parts(l, 0, 1050) == Parts{{2, 400}, {3, 350}, {4, 300}});  // many rounds
  CHECK(stripe_parts(l, 0, 0).empty());
  StripeLayout wrap{7, 3, 1, 8, 100};  // targets 7, 0, 1
  CHECK(stripe_parts(wrap, 0, 250) == Parts{{7, 100}, {0, 100}, {1, 50}});
  StripeLayout local{1, 2, 4, 8, 100};  // one server's disks: targets 1 and 5
  CHECK(stripe_parts(local, 0, 400) == Parts{{1, 200}, {5, 200}});
}
