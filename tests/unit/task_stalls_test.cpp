#include "sim/mw/task_stalls.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace llsim;

TEST_CASE("task stalls: failed attempts without a checkpoint stop the run", "[task_stalls]")
{
  TaskStalls stalls(2, 3);
  CHECK_FALSE(stalls.failed(0, {0, 60}));
  CHECK_FALSE(stalls.failed(0, {0, 30}));
  // Another task's failures are its own.
  CHECK_FALSE(stalls.failed(1, {0, 10}));
  CHECK(stalls.failed(0, {0, 90}));
  CHECK(stalls.stall(0).attempts == 3);
  CHECK(stalls.stall(0).ran_s == 180);
  CHECK(stalls.stall(1).attempts == 1);
}

TEST_CASE("task stalls: a checkpoint beyond the farthest one starts the count again", "[task_stalls]")
{
  // A task far longer than any attempt, checkpointing its way forward: never stopped, however
  // many attempts it takes.
  TaskStalls stalls(1, 2);
  double saved = 0;
  for (int k = 0; k < 100; ++k) {
    saved += 1e9;
    REQUIRE_FALSE(stalls.failed(0, {saved, 60}));
    // The next attempt fails before its first checkpoint: one in a row, not two.
    REQUIRE_FALSE(stalls.failed(0, {saved, 5}));
  }
  CHECK(stalls.stall(0).farthest_flops == 100e9);
  CHECK(stalls.stall(0).attempts == 1);
  // Attempts that never get past the farthest checkpoint count, even if they write checkpoints
  // of their own (a local checkpoint, on a worker that could not resume the farther one).
  CHECK(stalls.failed(0, {40e9, 60}));
}

TEST_CASE("task stalls: the message names the task, the attempts and the figures", "[task_stalls]")
{
  StallFigures f;
  f.task              = "t7";
  f.attempts          = 1002;
  f.stall             = {1000, 0, 61234, 0};
  f.needed_s          = 1800;
  f.flops             = 1.8e14;
  f.checkpoint_s      = std::numeric_limits<double>::infinity();
  f.mtbf_s            = 60;
  const std::string m = stall_message(f);
  CHECK(m.find("task t7 cannot progress: 1002 attempts, the last 1000 in a row") != std::string::npos);
  CHECK(m.find("before the task got to a checkpoint or finished") != std::string::npos);
  CHECK(
      m.find("needs 30 min of compute, and those that started lasted 61.23 s on average (the workers' MTBF is 60 s)") !=
      std::string::npos);
  CHECK(m.find("give_up_after") != std::string::npos);
  f.stall.farthest_flops = 3e13;
  f.checkpoint_s         = 600;
  f.mtbf_s               = std::numeric_limits<double>::infinity();
  const std::string c    = stall_message(f);
  CHECK(c.find("past its farthest checkpoint (30 TFlop of 180 TFlop)") != std::string::npos);
  CHECK(c.find("(10 min to its next checkpoint)") != std::string::npos);
  CHECK(c.find("the workers' MTBF is") == std::string::npos);
}

TEST_CASE("task stalls: attempts far shorter than the compute they need stop the run early", "[task_stalls]")
{
  // Attempts of 60 s against 2,780 s of compute: exp(2780 / 60) attempts expected before one
  // survives, far beyond 1000: stopped once kMinStalledSample of them have failed in a row.
  TaskStalls hopeless(1, 1000);
  for (int64_t k = 1; k < kMinStalledSample; ++k)
    REQUIRE_FALSE(hopeless.failed(0, {0, 60, 2780}));
  CHECK(hopeless.failed(0, {0, 60, 2780}));
  CHECK(hopeless.stall(0).expected_attempts() == Approx(std::exp(2780.0 / 60)));
  // 300 s against attempts of 60 s: exp(5) = 148 attempts expected, within 1000: only the count
  // of attempts in a row stops it.
  TaskStalls unlucky(1, 1000);
  for (int k = 1; k < 1000; ++k)
    REQUIRE_FALSE(unlucky.failed(0, {0, 60, 300}));
  CHECK(unlucky.failed(0, {0, 60, 300}));
}

TEST_CASE("task stalls: tasks lost from failed workers' queues unstarted count as attempts", "[task_stalls]")
{
  TaskStalls stalls(1, 5);
  for (int k = 1; k < 5; ++k)
    REQUIRE_FALSE(stalls.bounced(0));
  CHECK(stalls.bounced(0));
  CHECK(stalls.stall(0).bounces == 5);
  // They run no compute: the estimate takes only the attempts that started.
  TaskStalls mixed(1, 1000);
  for (int k = 0; k < 100; ++k)
    REQUIRE_FALSE(mixed.bounced(0));
  for (int64_t k = 1; k < kMinStalledSample; ++k)
    REQUIRE_FALSE(mixed.failed(0, {0, 60, 300}));
  CHECK(mixed.stall(0).expected_attempts() == Approx(std::exp(5.0)));
}
