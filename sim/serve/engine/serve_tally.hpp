// What a serve phase measured, per request and per instance, and the phase's metrics.
//
// Metrics: metric_table() (`llsim models` lists it), in the order metrics() writes them.
// CSVs: <phase>_requests.csv one row per request; <phase>_instances.csv, in time order, a row
// per instance at the end of its first iteration at least sample_period after its previous row:
// the instance's role, that iteration's batch and KV use, and the share of the time since the
// previous row (or the phase's start) its GPUs were busy. An idle instance writes no row.
// <phase>_operators.csv: sim/serve/cost/operator_tally.hpp; <phase>_loads.csv: sim/serve/weights/load_tally.hpp;
// <phase>_scaling.csv: sim/serve/scaling/scale_tally.hpp; <phase>_swaps.csv: sim/serve/kv/swap_tally.hpp.
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/metrics.hpp"
#include "sim/phase/group_use.hpp"
#include "sim/serve/cost/iteration_model.hpp"
#include "sim/serve/cost/operator_tally.hpp"
#include "sim/serve/kv/swap_tally.hpp"
#include "sim/serve/scaling/scale_tally.hpp"
#include "sim/serve/weights/load_tally.hpp"
#include "sim/serve/workload/request_trace.hpp"
#include "sim/serve/workload/slo.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace llsim {

// What a serving system measured beyond the requests, read after the simulation: KV moved and
// held, evictions, preemptions, and the KV writes (to a pool or SSD tier) that finished after the
// last request ended, in the background: their bytes and when the last one finished.
struct ServeTotals {
  double kv_B_transferred = 0, pool_peak_B = 0, evicted_blocks = 0, preemptions = 0, recomputed_tokens = 0;
  double drain_B = 0, drain_end_s = 0;
  double instance_time_s = 0;    // the instances' GPU time (ServeInstance::held_seconds)
  GpuUse gpu_use;                // what the instances' iterations asked of their GPUs
  int64_t routed_instances = 0;  // the instances the router chooses among (numbered from 0)
  std::vector<GroupUse> usage;   // per group of instances: held and busy host-seconds
};

class ServeTally {
 public:
  ServeTally(const std::vector<TraceRequest>& requests, const SloSpec& slo, size_t instances, double sample_period_s);

  void first_token(int64_t id, double now);
  // `n` more tokens of request `id`, out at times[0..n-1].
  void tokens(int64_t id, const double* times, int64_t n);
  void finished(int64_t id, double now);
  void rejected(int64_t id, double now);
  // Lost with the instance that held it (its host failed), before its last token.
  void failed(int64_t id, double now);
  // Aborted by its client, whose timeout passed before its last token.
  void timed_out(int64_t id, double now);
  // The clients' timeout (workload.client_timeout), and when request `id`'s passes.
  void set_client_timeout(double seconds) { client_timeout_s_ = seconds; }
  bool has_client_timeout() const { return std::isfinite(client_timeout_s_); }
  double deadline(int64_t id) const { return records_[static_cast<size_t>(id)].arrival_s + client_timeout_s_; }
  // Those of `ids` whose timeout passed by `now`; the earliest of their deadlines (+inf: none).
  std::vector<int64_t> timed_out_by(const std::vector<int64_t>& ids, double now) const;
  double earliest_deadline(const std::vector<int64_t>& ids) const;
  void assigned(int64_t id, int instance) { records_[static_cast<size_t>(id)].instance = instance; }
  void prefix_hit(int64_t id, int64_t blocks) { records_[static_cast<size_t>(id)].hit_blocks = blocks; }
  // One iteration of `instance` of `batch` sequences ran from now - seconds to now, its GPUs
  // busy for gpu_seconds of it.
  void iteration(int instance, double now, double seconds, double gpu_seconds, int64_t batch, double kv_used_share);
  // Whether an iteration of `instance` ending at `now` writes a row of the instances' table
  // (iteration() needs its KV use only then).
  bool samples_at(int instance, double now) const { return now >= next_sample_[static_cast<size_t>(instance)]; }
  // An iteration cut by a failure after `seconds` of GPU work.
  void cut_iteration(int instance, double seconds);
  // A completed iteration of `instance`, broken down per operator when its model does that.
  void operators(int instance, const IterationModel& model, const BatchWork& work)
  {
    operators_.add(roles_[static_cast<size_t>(instance)], model, work);
  }
  // "prefill", "decode" or "colocated": what an instance does, for its rows of the CSV.
  void set_role(int instance, const char* role) { roles_[static_cast<size_t>(instance)] = role; }

  bool all_done() const { return done_ == records_.size(); }
  // Request-seconds of the requests that finished, less those they spent in a batch: their time
  // waiting for a batch slot or KV memory (admission, preemption), a KV transfer or weights.
  double queued_request_seconds() const;
  // The sum of `per_request` (one figure per request) over the finished requests.
  double sum_over_finished(const std::vector<double>& per_request) const;
  // Request-seconds that sequences sat waiting through an instance's iterations, by what kept
  // them out (Batcher::held_by_memory): a measure of how queued_request_seconds divides.
  void waited_through_iteration(bool for_memory, double request_seconds)
  {
    (for_memory ? kv_wait_s_ : slot_wait_s_) += request_seconds;
  }
  // Request-seconds the finished requests spent, before their first token, while their instance
  // loaded its weights (docs/accounting.md, "waiting for weights").
  double weight_wait_seconds() const;
  double kv_wait_seconds() const { return kv_wait_s_; }
  double slot_wait_seconds() const { return slot_wait_s_; }
  // Seconds the instance's GPUs were busy so far (iterations completed or cut).
  double busy_seconds(int instance) const { return busy_s_[static_cast<size_t>(instance)]; }
  // The phase starts: arrival times, relative until now, become absolute.
  void start(double now);
  Metrics metrics(size_t bad_lines, const ServeTotals& system) const;
  // The serve phase kind's declared metrics (sim/core/metrics.hpp).
  static const MetricTable& metric_table();
  CsvWriter requests_table() const;  // its rows are read from the tally as the table is written
  CsvWriter instances_table() const;
  const OperatorTally& operator_tally() const { return operators_; }
  LoadTally& loads() { return loads_; }
  ScaleTally& scaling() { return scaling_; }
  const ScaleTally& scaling() const { return scaling_; }
  // Autoscaling's provisioning delay: a cold start without a weight load serves after it.
  void set_provisioning(double seconds) { provisioning_s_ = seconds; }
  const LoadTally& loads() const { return loads_; }
  SwapTally& swaps() { return swaps_; }
  const SwapTally& swaps() const { return swaps_; }

 private:
  struct Record {
    double arrival_s = 0, first_s = -1, last_s = -1, finish_s = -1;
    int64_t output_tokens = 0, blocks = 0, hit_blocks = 0, tokens = 0;
    int instance  = -1;
    bool rejected = false, failed = false, timed_out = false;
    GapTracker gaps;
  };
  void ended(Record& r, double now);  // a request ended, one way or another: its gaps closed
  bool meets(const Record& r) const;
  static const MetricTable& request_metrics();
  Metrics scaling_metrics(const ServeTotals& system) const;
  double load_imbalance(int64_t routed) const;

  SloSpec slo_;
  double period_s_;
  std::vector<Record> records_;
  size_t done_    = 0;
  double start_s_ = 0, end_s_ = 0;
  struct InstanceSample {
    double time_s;
    int instance;
    int64_t batch;
    double kv_used_share, busy_share;
  };
  std::vector<double> busy_s_, next_sample_;
  std::vector<double> row_s_, busy_at_row_;  // each instance's last row: when, and busy_s_ then
  double batch_seconds_ = 0;                 // sequences in a batch x seconds of its iteration
  std::vector<const char*> roles_;
  OperatorTally operators_;
  LoadTally loads_;
  ScaleTally scaling_;
  SwapTally swaps_;
  double provisioning_s_   = 0;
  double client_timeout_s_ = std::numeric_limits<double>::infinity();
  double kv_wait_s_ = 0, slot_wait_s_ = 0;
  std::vector<InstanceSample> samples_;
};

}  // namespace llsim
