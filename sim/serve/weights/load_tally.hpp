// The weight loads of a serve phase's instances (weight_source.hpp): one record per load started
// (at the phase's start, after a host failure, on a cold start), where it read from, its bytes,
// and how it ended: completed, interrupted by a failure of the host, or abandoned (the instance
// was released or the phase ended).
//
// Metrics: metric_table(), in the order metrics() writes them. CSV <phase>_loads.csv: one row per
// load in start order: instance, start_s, end_s (-1: still under way when the run ended),
// seconds, bytes (those of a completed load), source, completed (1 or 0), outcome.
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/metrics.hpp"

#include <string>
#include <utility>
#include <vector>

namespace llsim {

class LoadTally {
 public:
  // A load starts now; returns its record's number. `initial`: the instance was allocated at
  // the phase's start and has not completed a load yet (time_to_serve_s waits for it).
  size_t started(int instance, double now, bool initial);
  // It completed now, having read `bytes` from `source` ("pfs", "peer instance 3", ...).
  void completed(size_t load, double now, double bytes, const std::string& source);
  // A failure of its host cut it now, after it had chosen `source`.
  void interrupted(size_t load, double now, const std::string& source);
  // The instance was released or the phase ended: the load stopped now.
  void abandoned(size_t load, double now, const std::string& source);

  bool empty() const { return loads_.empty(); }
  // When the first load of `instance` that started at `after_s` or later completed (+inf: none).
  double ready_after(int instance, double after_s) const;
  // Per instance, the spans [start_s, end_s) its loads were under way, in start order (a load
  // still under way at `end_s` ends there).
  std::vector<std::vector<std::pair<double, double>>> loading_spans(size_t instances, double end_s) const;
  static const MetricTable& metric_table();
  // `start_s`: the phase's start, from which time_to_serve_s counts.
  Metrics metrics(double start_s) const;
  CsvWriter table() const;

 private:
  enum class Outcome { Running, Completed, Interrupted, Abandoned };
  struct Load {
    int instance   = 0;
    double start_s = 0, end_s = -1, bytes = 0;
    std::string source;
    bool initial    = false;
    Outcome outcome = Outcome::Running;
  };
  void ended(size_t load, double now, const std::string& source, Outcome outcome);
  std::vector<Load> loads_;
};

}  // namespace llsim
