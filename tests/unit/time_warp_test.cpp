#include "sim/serve/workload/time_warp.hpp"

#include <catch2/catch.hpp>

using llsim::TimeWarp;

TEST_CASE("a rate profile compresses each stretch of trace time by its own scale", "[time_warp]")
{
  const TimeWarp flat(2, {});
  CHECK(flat.at(100) == 50);
  // 2x until 600 s, 4x until 1200 s, then 1x.
  const TimeWarp steps(2, {{600, 4}, {1200, 1}});
  CHECK(steps.at(0) == 0);
  CHECK(steps.at(600) == 300);
  CHECK(steps.at(900) == Approx(375));
  CHECK(steps.at(1200) == Approx(450));
  CHECK(steps.at(1500) == Approx(750));
  const TimeWarp from_zero(1, {{0, 10}});  // a step at 0 replaces the base at once
  CHECK(from_zero.at(100) == Approx(10));
}
