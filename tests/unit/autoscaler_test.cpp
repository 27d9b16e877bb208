#include "sim/core/registry.hpp"
#include "sim/serve/scaling/autoscaler.hpp"
#include "sim/serve/scaling/scaling_governor.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

ScalingLimits limits(int64_t min, int64_t max, double cooldown, double delay)
{
  ScalingLimits l;
  l.min          = min;
  l.max          = max;
  l.cooldown_s   = cooldown;
  l.scale_down_s = delay;
  return l;
}

ScaleObservation seen(double now, int64_t allocated, double running, double queued = 0, double kv = 0)
{
  ScaleObservation o;
  o.now_s         = now;
  o.allocated     = allocated;
  o.running       = running;
  o.queued        = queued;
  o.kv_used_share = kv;
  return o;
}

}  // namespace

TEST_CASE("governor: scales up at once, bounded, and waits for the cooldown", "[autoscaler]")
{
  ScalingGovernor g(limits(2, 6, 60, 300));
  CHECK(g.decide(0, 2, 9) == 6);   // bounded by max
  CHECK(g.decide(30, 6, 1) == 6);  // below, but the delay has not passed
  ScalingGovernor h(limits(1, 8, 60, 0));
  CHECK(h.decide(0, 1, 3) == 3);
  CHECK(h.decide(10, 3, 5) == 3);   // within the cooldown
  CHECK(h.decide(60, 3, 5) == 5);   // after it
  CHECK(h.decide(120, 5, 0) == 1);  // no delay: down to min at once
}

TEST_CASE("governor: scales down after the delay to the highest proposal meanwhile", "[autoscaler]")
{
  ScalingGovernor g(limits(1, 8, 0, 100));
  CHECK(g.decide(0, 6, 2) == 6);
  CHECK(g.decide(50, 6, 4) == 6);
  CHECK(g.decide(99, 6, 3) == 6);
  CHECK(g.decide(100, 6, 2) == 4);  // the highest of 2, 4, 3, 2
  CHECK(g.decide(110, 4, 3) == 4);  // a new window starts
  CHECK(g.decide(150, 4, 4) == 4);  // back at the allocation: the window ends
  CHECK(g.decide(200, 4, 3) == 4);
  CHECK(g.decide(299, 4, 3) == 4);
  CHECK(g.decide(300, 4, 3) == 3);
}

TEST_CASE("target: proposes ceil(total / target) of the chosen metric", "[autoscaler]")
{
  test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  auto running = Registry<Autoscaler>::create(w.yaml("{impl: target, target: 4}"), {8});
  CHECK(running->initial() == 1);
  CHECK(running->propose(seen(0, 3, 16)) == 4);  // a whole multiple: no extra instance
  CHECK(running->propose(seen(0, 3, 17)) == 5);
  auto queue = Registry<Autoscaler>::create(w.yaml("{impl: target, metric: queue_length, target: 2, min: 2}"), {8});
  CHECK(queue->initial() == 2);
  CHECK(queue->propose(seen(0, 3, 100, 5)) == 3);
  auto kv = Registry<Autoscaler>::create(w.yaml("{impl: target, metric: kv_use, target: 0.5}"), {8});
  CHECK(kv->propose(seen(0, 4, 0, 0, 0.8)) == 7);  // 3.2 instances of KV in use at 0.5 each
  auto none = Registry<Autoscaler>::create(w.yaml("{impl: none}"), {8});
  CHECK_FALSE(none->scales());
  CHECK(none->initial() == 8);
}

TEST_CASE("schedule: each entry holds from its time, min before the first", "[autoscaler]")
{
  test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  auto s = Registry<Autoscaler>::create(
      w.yaml("{impl: schedule, min: 2, table: [{at: 10s, instances: 5}, {at: 1min, instances: 3}]}"), {8});
  CHECK(s->initial() == 2);
  CHECK(s->propose(seen(9.9, 2, 0)) == 2);
  CHECK(s->propose(seen(10, 2, 0)) == 5);
  CHECK(s->propose(seen(3600, 5, 0)) == 3);
}
