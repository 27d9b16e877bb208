#include "sim/serve/workload/slo.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

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

TEST_CASE("slo: the tail mean is that of the longest gaps whatever their order, and close keeps it", "[slo]")
{
  SloSpec slo;
  slo.statistic = TbtStatistic::TailMean;
  slo.tail      = 0.25;
  // 40 gaps, 10 kept: rising (each exceeds the shortest kept), falling (none does once full), mixed.
  std::vector<double> rising, falling, mixed;
  for (int i = 1; i <= 40; ++i) {
    rising.push_back(0.001 * i);
    falling.push_back(0.001 * (41 - i));
    mixed.push_back(0.001 * ((i * 17) % 41));
  }
  for (const auto* gaps : {&rising, &falling, &mixed}) {
    GapTracker g(slo, 40);
    for (double gap : *gaps)
      g.add(gap);
    std::vector<double> sorted = *gaps;
    std::sort(sorted.rbegin(), sorted.rend());
    const double expected = std::accumulate(sorted.begin(), sorted.begin() + 10, 0.0) / 10;
    CHECK(g.statistic() == Approx(expected).epsilon(1e-12));
    const double open = g.statistic(), mean = g.mean();
    g.close();
    CHECK(g.statistic() == open);  // the same double, no longer from the heap
    CHECK(g.mean() == mean);
    CHECK(g.gaps() == 40);
  }
}

TEST_CASE("slo: gaps told as end times give the same doubles as gaps added one by one", "[slo]")
{
  // add_times keeps its sum in a register: the additions, and so every digit, must stay those of
  // add(). The times start at 1.1 so that the gaps are inexact: summed in another order (a sum per
  // run then added, or the span last - first) they give another double.
  const double start = 1.1;
  std::vector<double> ends;
  double t = start;
  for (int i = 0; i < 300; ++i) {
    t += 0.013 + 0.0007 * ((i * 31) % 17) + (i % 9 == 0 ? 0.05 : 0);
    ends.push_back(t);
  }
  // The data tell the orders apart: the gaps summed one by one, per run, and the span differ.
  double in_order = 0, first_run = 0, second_run = 0;
  for (size_t k = 0; k < ends.size(); ++k) {
    const double gap = ends[k] - (k == 0 ? start : ends[k - 1]);
    in_order += gap;
    (k < 120 ? first_run : second_run) += gap;
  }
  CHECK(in_order != first_run + second_run);
  CHECK(in_order != ends.back() - start);
  for (TbtStatistic statistic : {TbtStatistic::TailMean, TbtStatistic::Mean, TbtStatistic::Max}) {
    SloSpec slo;
    slo.statistic = statistic;
    GapTracker by_times(slo, 300), one_by_one(slo, 300);
    by_times.add_times(start, ends.data(), 120);  // told in two runs, as a preempted sequence's are
    by_times.add_times(ends[119], ends.data() + 120, 180);
    by_times.add_times(ends[299], ends.data() + 300, 0);  // an empty run adds nothing
    double last = start;
    for (double end : ends) {
      one_by_one.add(end - last);
      last = end;
    }
    CHECK(by_times.gaps() == 300);
    CHECK(by_times.mean() == one_by_one.mean());
    CHECK(by_times.statistic() == one_by_one.statistic());
  }
}
