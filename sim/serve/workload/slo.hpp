// A request's service-level objective and the statistic of its token gaps it is judged on.
//
//   slo: {ttft: 30s, tbt: 100ms, tbt_statistic: tail_mean, tbt_tail: 0.1}
//
// TBT statistics over a request's gaps between consecutive output tokens:
//   tail_mean  the mean of its longest tbt_tail share of gaps (Mooncake, FAST'25: 10%)
//   mean       the mean gap
//   max        the longest gap
// A request meets the SLO when it completed, its TTFT <= ttft and its statistic <= tbt (a
// request of one token has no gap and meets the TBT limit).
#pragma once
#include "sim/core/params.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace llsim {

enum class TbtStatistic { TailMean, Mean, Max };

struct SloSpec {
  double ttft_s          = 0;
  double tbt_s           = 0;
  TbtStatistic statistic = TbtStatistic::TailMean;
  double tail            = 0.1;
};

const ParamTable& slo_params();
SloSpec parse_slo(const Params& p);

// The gaps of one request, kept only as far as its statistic needs: a running sum (mean), or
// the k longest in a min-heap (k = ceil(tail x gaps), 1 for max), so memory stays O(k) while the
// request runs. close() keeps the statistic alone once the last gap is in (O(1) after that).
class GapTracker {
 public:
  GapTracker() = default;
  GapTracker(const SloSpec& slo, int64_t expected_gaps);
  void add(double gap);
  // The gaps of tokens out at times[0..n-1], the one before them at `last`: add() for each.
  void add_times(double last, const double* times, int64_t n);
  void close();
  double statistic() const;                                                            // 0 without gaps
  double mean() const { return count_ > 0 ? sum_ / static_cast<double>(count_) : 0; }  // the TPOT
  int64_t gaps() const { return count_; }

 private:
  double open_statistic() const;
  void offer(double gap);  // to the heap of the longest, where the statistic keeps one and it is long enough
  void keep(double gap);   // into the heap of the longest (it is longer than the shortest kept)

  TbtStatistic statistic_ = TbtStatistic::Mean;
  size_t keep_            = 1;
  int64_t count_          = 0;
  double sum_             = 0;
  double closed_          = -1;  // the statistic once closed; -1 while open
  // The shortest gap kept once the heap is full (-inf before): a gap no longer than it changes nothing.
  double kept_floor_ = -std::numeric_limits<double>::infinity();
  std::vector<double> longest_;  // min-heap of the longest gaps
};

}  // namespace llsim
