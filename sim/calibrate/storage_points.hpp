// The measured results `llsim calibrate --storage` fits to (calibrate_storage.hpp): a CSV of
//   scenario,group,metric,measured
// one row per measured result of a real system: the scenario that describes it (a path relative
// to the CSV), the group it belongs to for leaving one out (its submitter), the figure of
// summary.json to compare, as phase.metric (e.g. checkpoint.save_GiBps), and the measured value
// in that metric's unit (> 0: errors are relative). analysis/mlperf_storage.py and
// analysis/mlperf_checkpoint.py write one beside their scenarios. Errors name the file and line.
#pragma once
#include <string>
#include <vector>

namespace llsim {

struct StoragePoint {
  std::string where;     // file:line
  std::string scenario;  // as the CSV gives it, made relative to the current directory
  std::string group, phase, metric;
  double measured = 0;
};

std::vector<StoragePoint> read_storage_points(const std::string& file);

}  // namespace llsim
