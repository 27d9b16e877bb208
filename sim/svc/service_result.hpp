// What one service of a finished run reported: its totals for summary.json and its
// service_<name>.csv. The run driver (sim/run/simulation.hpp) fills it in.
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/metrics.hpp"

#include <string>

namespace llsim {

struct ServiceResult {
  std::string name;
  std::string kind;
  Metrics totals;
  CsvWriter table;  // service_<name>.csv
};

}  // namespace llsim
