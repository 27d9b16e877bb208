// What autoscaling did in a serve phase (autoscaler.hpp): each decision (a row of
// <phase>_scaling.csv: time_s, allocated, serving, queued, running, kv_used_share, proposed,
// decided) and each cold start (an instance allocated after the phase's start that had given its
// GPUs back). Its metrics join the requests' records: see metric_table().
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/metrics.hpp"
#include "sim/serve/scaling/autoscaler.hpp"

#include <functional>
#include <vector>

namespace llsim {

class ScaleTally {
 public:
  // A decision at `time_s` (o.now_s is from the phase's start).
  void decision(const ScaleObservation& o, double time_s, int64_t proposed, int64_t decided);
  void cold_start(int instance, double decided_s) { starts_.push_back({instance, decided_s}); }
  // The instance was released: a cold start of it still under way is cancelled.
  void released(int instance, double time_s);
  // A request's arrival and whether it met the SLO, for the metrics.
  struct Request {
    double arrival_s = 0;
    bool met         = false;
  };
  static const MetricTable& metric_table();
  // `serving_at(instance, t)`: when the instance allocated at t could serve (provisioned and
  // loaded; +inf: never); `first_token_at(instance, t)`: its first token at or after t (+inf:
  // none). `held_s`: the instances' GPU time; `instances`: the system's (the peak without
  // autoscaling).
  Metrics metrics(const std::vector<Request>& requests, double held_s, int64_t instances,
                  const std::function<double(int, double)>& serving_at,
                  const std::function<double(int, double)>& first_token_at) const;
  CsvWriter table() const;
  bool empty() const { return rows_.empty(); }

 private:
  struct Row {
    ScaleObservation o;
    double time_s;
    int64_t proposed, decided;
  };
  struct Start {
    int instance;
    double decided_s;
    double released_s = -1;  // the first release after it (-1: none)
  };
  std::vector<Row> rows_;
  std::vector<Start> starts_;
};

}  // namespace llsim
