// Cumulative counters sampled over simulated time for a phase's CSV: a row is kept at most once
// per `period` (plus the final state), so long runs give bounded files.
#pragma once
#include "sim/core/csv.hpp"

#include <string>
#include <vector>

namespace llsim {

class TimeSeries {
 public:
  TimeSeries(std::vector<std::string> counters, double period_s);

  void add(size_t counter, double amount, double now);
  void finish(double now);  // records the final row
  const CsvWriter& table() const { return table_; }

 private:
  void record(double now);

  std::vector<double> values_;
  double period_s_;
  double next_row_at_ = 0;
  CsvWriter table_;
};

}  // namespace llsim
