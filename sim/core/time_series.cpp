#include "sim/core/time_series.hpp"

namespace llsim {

TimeSeries::TimeSeries(std::vector<std::string> counters, double period_s)
    : values_(counters.size(), 0.0)
    , period_s_(period_s)
{
  table_.header = {"time_s"};
  table_.header.insert(table_.header.end(), counters.begin(), counters.end());
}

void TimeSeries::add(size_t counter, double amount, double now)
{
  if (now >= next_row_at_)
    record(now);  // the state just before `now`, so steps show where they happen
  values_[counter] += amount;
}

void TimeSeries::finish(double now)
{
  record(now);
}

void TimeSeries::record(double now)
{
  std::vector<double> row = {now};
  row.insert(row.end(), values_.begin(), values_.end());
  table_.add_numbers(row);
  next_row_at_ = now + period_s_;
}

}  // namespace llsim
