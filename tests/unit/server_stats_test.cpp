#include "sim/svc/server_stats.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("server statistics: time buckets, time averages, idle buckets skipped", "[server_stats]")
{
  ServerStats s(10, 4);
  s.busy_changed(0, 2);   // 2 of 4 units busy for 5 s
  s.queue_changed(0, 2);  // two parts of the server queue: 2 + 1
  s.queue_changed(0, 1);
  s.busy_changed(5, -2);
  s.queue_changed(5, -3);
  s.add(5, 1000, 2);
  s.busy_changed(35, 4);  // buckets [10, 20) and [20, 30) idle
  s.busy_changed(40, -4);
  s.finish(42);
  const auto& rows = s.rows();
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].time_s == 10);
  CHECK(rows[0].bytes == 1000);
  CHECK(rows[0].operations == 2);
  CHECK(rows[0].queue == Approx(1.5));         // 3 for 5 s of 10
  CHECK(rows[0].utilisation == Approx(0.25));  // 2 units for 5 s of 4 x 10
  CHECK(rows[1].time_s == 40);
  CHECK(rows[1].utilisation == Approx(0.5));  // 4 units for 5 s of [30, 40)
  CHECK(s.busy_seconds() == Approx(2 * 5 + 4 * 5));
  CHECK(s.peak_queue() == 3);
}

TEST_CASE("server statistics: a stored level is written as it stands at each kept bucket's end", "[server_stats]")
{
  ServerStats s(10, 1);
  s.level_changed(2, 100);
  s.level_changed(4, 300);
  s.add(15, 50, 1);        // a bucket without a level change still shows the level
  s.level_changed(45, 0);  // [20, 40) idle: no rows, the level held
  s.finish(47);
  const auto& rows = s.rows();
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].time_s == 10);
  CHECK(rows[0].level == 300);
  CHECK(rows[1].time_s == 20);
  CHECK(rows[1].level == 300);
  CHECK(rows[2].time_s == 47);
  CHECK(rows[2].level == 0);
  CHECK(rows[2].operations == 0);
}
