// Where a serve phase's iteration time went, per operator: <phase>_operators.csv, one row per
// role (colocated, prefill, decode) and operator of an iteration model that breaks its time
// down (IterationModel::operator_names), summed over the iterations that completed.
#pragma once
#include "sim/core/csv.hpp"
#include "sim/serve/cost/iteration_model.hpp"

#include <map>
#include <string>
#include <vector>

namespace llsim {

class OperatorTally {
 public:
  void add(const char* role, const IterationModel& model, const BatchWork& work);
  bool empty() const { return seconds_.empty(); }
  // Columns role, operator, seconds, share (of the role's iteration time).
  CsvWriter table() const;

 private:
  struct Sums {
    const std::vector<std::string>* names = nullptr;
    std::vector<double> seconds;
  };
  std::map<std::string, Sums> seconds_;  // by role, in name order for a stable file
};

}  // namespace llsim
