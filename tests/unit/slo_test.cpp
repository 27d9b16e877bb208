#include "sim/serve/workload/slo.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("slo: the tail mean averages the longest share of a request's gaps", "[slo]")
{
  SloSpec slo;
  slo.statistic = TbtStatistic::TailMean;
  slo.tail      = 0.1;
  GapTracker g(slo, 20);  // 20 gaps: the longest 2 count
  for (int i = 1; i <= 20; ++i)
    g.add(i == 7 ? 0.5 : i == 13 ? 0.3 : 0.01 * i);
  CHECK(g.gaps() == 20);
  CHECK(g.statistic() == Approx((0.5 + 0.3) / 2));
  GapTracker odd(slo, 15);  // ceil(1.5) = 2 gaps
  for (double gap : {0.1, 0.9, 0.2, 0.8, 0.3})
    odd.add(gap);
  CHECK(odd.statistic() == Approx(0.85));
}

TEST_CASE("slo: mean and max of the gaps; no gap gives 0", "[slo]")
{
  SloSpec mean, max;
  mean.statistic = TbtStatistic::Mean;
  max.statistic  = TbtStatistic::Max;
  GapTracker a(mean, 3), b(max, 3), none(mean, 0);
  for (double gap : {0.1, 0.4, 0.1}) {
    a.add(gap);
    b.add(gap);
  }
  CHECK(a.statistic() == Approx(0.2));
  CHECK(b.statistic() == Approx(0.4));
  CHECK(none.statistic() == 0);
}
