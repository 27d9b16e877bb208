#include "sim/train/spare_pool.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("spare pool: unlimited spares always swap in", "[train]")
{
  SparePool p(-1, 60);
  CHECK(p.replace(100, 1e9) == 160);
  CHECK(p.replace(200, 1e9) == 260);
  CHECK(p.swaps() == 2);
}

TEST_CASE("spare pool: no spare, the job waits for the repair", "[train]")
{
  SparePool p(0, 60);
  CHECK(p.replace(100, 5000) == 5000);   // no swap time: the same host comes back
  CHECK(p.replace(6000, 6000) == 6000);  // repaired at once
  CHECK(p.swaps() == 0);
}

TEST_CASE("spare pool: a spare is used, then returns once its host is repaired", "[train]")
{
  SparePool p(1, 60);
  CHECK(p.replace(100, 1000) == 160);  // the spare swaps in; host A in repair until 1000
  // Host B fails at 200, repaired at 5000: no spare free; A is back at 1000 and swaps in by 1060.
  CHECK(p.replace(200, 5000) == 1060);
  // Host C fails at 2000, repaired at 2500: B repairs until 5000, so C's own repair comes first.
  CHECK(p.replace(2000, 2500) == 2500);
  // At 6000, B is back as a spare: the next failure swaps it in.
  CHECK(p.replace(6000, 9000) == 6060);
  CHECK(p.swaps() == 3);
}

TEST_CASE("spare pool: a failure during the wait adds a place; the job needs both", "[train]")
{
  SparePool p(0, 60);
  CHECK(p.replace(100, 5000) == 5000);
  // B fails at 200 and is back at 1000, but A's place still waits for 5000.
  CHECK(p.replace(200, 1000) == 5000);
  // After both are back, a failure waits for its own repair only.
  CHECK(p.replace(6000, 6500) == 6500);
}

TEST_CASE("spare pool: a host back within the swap time keeps its place and the spare", "[train]")
{
  SparePool p(1, 60);
  CHECK(p.replace(100, 100) == 100);  // a software fault: no repair, no swap
  CHECK(p.replace(200, 250) == 250);  // back in 50 s, before a 60-s swap
  CHECK(p.swaps() == 0);
  CHECK(p.replace(300, 1000) == 360);  // the spare is still free
  CHECK(p.swaps() == 1);
  SparePool unlimited(-1, 60);
  CHECK(unlimited.replace(100, 130) == 130);
  CHECK(unlimited.swaps() == 0);
}

TEST_CASE("spare pool: hosts failing at one instant each need a spare or their repair", "[train]")
{
  // A switch takes three hosts down at 100 until 5000; one spare: two places wait for repairs.
  SparePool p(1, 60);
  CHECK(p.replace(100, 5000) == 160);
  CHECK(p.replace(100, 5000) == 5000);
  CHECK(p.replace(100, 5000) == 5000);
  CHECK(p.swaps() == 1);
}

TEST_CASE("spare pool: of hosts failing at once, the longest repairs get the spares", "[train]")
{
  // One spare, hosts back at 2000 and 3000 in either order: the spare covers the 3000 one
  // (in by 1060), the job waits for the other's repair.
  for (const std::vector<double>& ups : {std::vector<double>{2000, 3000}, std::vector<double>{3000, 2000}}) {
    SparePool p(1, 60);
    CHECK(p.replace_all(1000, ups) == 2000);
    CHECK(p.swaps() == 1);
  }
  SparePool none(0, 60);
  CHECK(none.replace_all(1000, {}) == 1000);  // nothing to replace: ready now
}
