#include "sim/serve/workload/slo.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace llsim {

const ParamTable& slo_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("ttft", Dimension::Duration, "time to first token limit").positive(),
      ParamSpec::quantity("tbt", Dimension::Duration, "limit on the TBT statistic").positive(),
      ParamSpec::one_of("tbt_statistic", {"tail_mean", "mean", "max"},
                        "tail_mean (mean of the longest tbt_tail gaps), mean or max")
          .defaults("tail_mean"),
      ParamSpec::quantity("tbt_tail", Dimension::Number, "tail_mean: share of a request's gaps averaged (absent: 0.1)")
          .may_be_absent()
          .positive()
          .at_most(1),
  };
  return t;
}

SloSpec parse_slo(const Params& p)
{
  SloSpec s;
  s.ttft_s               = p.quantity("ttft");
  s.tbt_s                = p.quantity("tbt");
  const std::string name = p.text("tbt_statistic");
  if (name == "tail_mean")
    s.statistic = TbtStatistic::TailMean;
  else if (name == "mean")
    s.statistic = TbtStatistic::Mean;
  else
    s.statistic = TbtStatistic::Max;
  if (p.has("tbt_tail")) {
    if (s.statistic != TbtStatistic::TailMean)
      p.fail("tbt_tail", "only for tbt_statistic: tail_mean");
    s.tail = p.quantity("tbt_tail");
  }
  return s;
}

GapTracker::GapTracker(const SloSpec& slo, int64_t expected_gaps)
    : statistic_(slo.statistic)
{
  if (statistic_ == TbtStatistic::TailMean)
    keep_ = static_cast<size_t>(std::max<double>(1, std::ceil(slo.tail * static_cast<double>(expected_gaps) - 1e-9)));
}

// Most gaps of a long request fall short of the longest kept: decided without the heap's memory.
inline void GapTracker::offer(double gap)
{
  if (statistic_ != TbtStatistic::Mean && gap > kept_floor_)
    keep(gap);
}

void GapTracker::add(double gap)
{
  count_ += 1;
  sum_ += gap;
  offer(gap);
}

// add() for each gap, with the count and sum held in registers through the loop (keep() reads
// neither): the same additions in the same order.
void GapTracker::add_times(double last, const double* times, int64_t n)
{
  if (n <= 0)
    return;
  double sum = sum_;
  for (int64_t k = 0; k < n; ++k) {
    const double gap = times[k] - last;
    last             = times[k];
    sum += gap;
    offer(gap);
  }
  count_ += n;
  sum_ = sum;
}

void GapTracker::keep(double gap)
{
  if (longest_.size() < keep_) {
    if (longest_.empty())
      longest_.reserve(keep_);  // once, at its size
    longest_.push_back(gap);
    std::push_heap(longest_.begin(), longest_.end(), std::greater<>());
  } else {
    std::pop_heap(longest_.begin(), longest_.end(), std::greater<>());
    longest_.back() = gap;
    std::push_heap(longest_.begin(), longest_.end(), std::greater<>());
  }
  if (longest_.size() == keep_)
    kept_floor_ = longest_.front();
}

void GapTracker::close()
{
  closed_ = open_statistic();
  std::vector<double>().swap(longest_);
}

double GapTracker::statistic() const
{
  return closed_ >= 0 ? closed_ : open_statistic();
}

double GapTracker::open_statistic() const
{
  if (count_ == 0)
    return 0;
  switch (statistic_) {
  case TbtStatistic::Mean:
    return sum_ / static_cast<double>(count_);
  case TbtStatistic::Max:
    return longest_.front();
  case TbtStatistic::TailMean:
    break;
  }
  double s = 0;
  for (double g : longest_)
    s += g;
  return s / static_cast<double>(longest_.size());
}

}  // namespace llsim
