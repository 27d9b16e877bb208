#include "sim/study/plan_search.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace llsim;

namespace {

// Counts distinct points evaluated, as the plan's cache would run them.
struct Counting {
  std::function<PointScore(const PointIndex&)> f;
  std::map<PointIndex, PointScore> seen;
  PointScore operator()(const PointIndex& p)
  {
    const auto it = seen.find(p);
    if (it != seen.end())
      return it->second;
    return seen[p] = f(p);
  }
};

PlanAnswer searched(Counting& c, const std::vector<size_t>& sizes, const std::vector<AxisShape>& shapes)
{
  return search_plan(sizes, shapes, [&c](const PointIndex& p) { return c(p); });
}

PlanAnswer exhaustive(Counting& c, const std::vector<size_t>& sizes)
{
  return search_exhaustive(sizes, [&c](const PointIndex& p) { return c(p); });
}

}  // namespace

TEST_CASE("plan search: one monotone axis is bisected", "[plan]")
{
  // Instances 1..32: the SLO is met from 13 on; cost grows with the instances.
  Counting c{[](const PointIndex& p) {
    const double n = static_cast<double>(p[0] + 1);
    return PointScore{n >= 13, n, n >= 13 ? 0 : 13 - n};
  }};
  const PlanAnswer a = searched(c, {32}, {AxisShape::Monotone});
  CHECK(a.feasible);
  CHECK(a.best == PointIndex{12});
  CHECK(c.seen.size() <= 7);  // the corner, then log2(32) + 1
  Counting all{c.f};
  CHECK(exhaustive(all, {32}).best == a.best);
  CHECK(all.seen.size() == 32);
}

TEST_CASE("plan search: two monotone axes follow the staircase to the cheapest point", "[plan]")
{
  // prefill x decode instances 1..8 each; meets when 2p + d >= 14; prefill costs 3, decode 2.
  const auto f = [](const PointIndex& p) {
    const double pre = static_cast<double>(p[0] + 1), dec = static_cast<double>(p[1] + 1);
    const bool meets = 2 * pre + dec >= 14;
    return PointScore{meets, 3 * pre + 2 * dec, meets ? 0 : 14 - 2 * pre - dec};
  };
  Counting c{f}, all{f};
  const PlanAnswer a = searched(c, {8, 8}, {AxisShape::Monotone, AxisShape::Monotone});
  const PlanAnswer e = exhaustive(all, {8, 8});
  CHECK(a.feasible);
  CHECK(a.best == e.best);
  CHECK(c.seen.size() * 3 <= all.seen.size());  // 20 of 64
}

TEST_CASE("plan search: a unimodal axis is golden-section searched", "[plan]")
{
  // Checkpoint interval 1..40 min: cost is lowest at 17 min; the target holds between 8 and 30.
  const auto f = [](const PointIndex& p) {
    const double x = static_cast<double>(p[0] + 1), cost = (x - 17) * (x - 17) + 100;
    const bool meets = x >= 8 && x <= 30;
    return PointScore{meets, cost, meets ? 0.0 : 1.0};
  };
  Counting c{f}, all{f};
  const PlanAnswer a = searched(c, {40}, {AxisShape::Unimodal});
  CHECK(a.best == exhaustive(all, {40}).best);
  CHECK(a.best == PointIndex{16});
  CHECK(c.seen.size() * 3 <= 40);
}

TEST_CASE("plan search: infeasible when the most capable corner misses; the best found is the closest", "[plan]")
{
  Counting c{[](const PointIndex& p) {
    const double n = static_cast<double>(p[0] + 1);
    return PointScore{false, n, 100 - n};
  }};
  const PlanAnswer a = searched(c, {16}, {AxisShape::Monotone});
  CHECK_FALSE(a.feasible);
  CHECK(a.best == PointIndex{15});
  CHECK(c.seen.size() == 1);
}

TEST_CASE("plan search: a unimodal axis over monotone ones, against the whole grid", "[plan]")
{
  // Pool size (monotone, 1..6) and interval (unimodal, 1..30): meets when pool >= 3; cost is
  // pool x 10 + (interval - 20)^2.
  const auto f = [](const PointIndex& p) {
    const double pool = static_cast<double>(p[0] + 1), x = static_cast<double>(p[1] + 1);
    return PointScore{pool >= 3, pool * 10 + (x - 20) * (x - 20), pool >= 3 ? 0 : 3 - pool};
  };
  Counting c{f}, all{f};
  const PlanAnswer a = searched(c, {6, 30}, {AxisShape::Monotone, AxisShape::Unimodal});
  CHECK(a.best == exhaustive(all, {6, 30}).best);
  CHECK(a.best == PointIndex{2, 19});
  CHECK(c.seen.size() * 3 <= all.seen.size());
}

TEST_CASE("plan search: ties go to the lowest index, as in the grid", "[plan]")
{
  const auto f = [](const PointIndex& p) { return PointScore{p[0] >= 2, 5, 0}; };
  Counting c{f}, all{f};
  CHECK(searched(c, {6}, {AxisShape::Unimodal}).best == exhaustive(all, {6}).best);
}
