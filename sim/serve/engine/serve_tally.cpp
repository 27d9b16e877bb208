#include "sim/serve/engine/serve_tally.hpp"

#include "sim/core/percentile.hpp"

#include <algorithm>
#include <numeric>

namespace llsim {

namespace {

double mean_of(const std::vector<double>& values)
{
  return values.empty() ? 0 : std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

}  // namespace

ServeTally::ServeTally(const std::vector<TraceRequest>& requests, const SloSpec& slo, size_t instances,
                       double sample_period_s)
    : slo_(slo)
    , period_s_(sample_period_s)
    , records_(requests.size())
    , busy_s_(instances, 0)
    , next_sample_(instances, 0)
    , row_s_(instances, 0)
    , busy_at_row_(instances, 0)
    , roles_(instances, "colocated")
{
  for (size_t i = 0; i < requests.size(); ++i) {
    Record& r       = records_[i];
    r.arrival_s     = requests[i].arrival_s;
    r.output_tokens = requests[i].output_tokens;
    r.blocks        = static_cast<int64_t>(requests[i].hash_ids.size());
  }
}

void ServeTally::start(double now)
{
  start_s_ = end_s_ = now;
  std::fill(row_s_.begin(), row_s_.end(), now);
  for (Record& r : records_)
    r.arrival_s += now;
}

void ServeTally::first_token(int64_t id, double now)
{
  Record& r = records_[static_cast<size_t>(id)];
  r.first_s = now;
  r.gaps    = GapTracker(slo_, r.output_tokens - 1);
  r.last_s  = now;
  r.tokens += 1;
}

void ServeTally::tokens(int64_t id, const double* times, int64_t n)
{
  if (n <= 0)
    return;
  Record& r = records_[static_cast<size_t>(id)];
  r.gaps.add_times(r.last_s, times, n);
  r.last_s = times[n - 1];
  r.tokens += n;
}

void ServeTally::ended(Record& r, double now)
{
  r.gaps.close();
  done_ += 1;
  end_s_ = std::max(end_s_, now);
}

void ServeTally::finished(int64_t id, double now)
{
  Record& r  = records_[static_cast<size_t>(id)];
  r.finish_s = now;
  ended(r, now);
}

void ServeTally::rejected(int64_t id, double now)
{
  Record& r  = records_[static_cast<size_t>(id)];
  r.rejected = true;
  ended(r, now);
}

void ServeTally::failed(int64_t id, double now)
{
  Record& r = records_[static_cast<size_t>(id)];
  r.failed  = true;
  ended(r, now);
}

void ServeTally::timed_out(int64_t id, double now)
{
  Record& r   = records_[static_cast<size_t>(id)];
  r.timed_out = true;
  ended(r, now);
}

std::vector<int64_t> ServeTally::timed_out_by(const std::vector<int64_t>& ids, double now) const
{
  std::vector<int64_t> expired;
  for (int64_t id : ids)
    if (deadline(id) <= now)
      expired.push_back(id);
  return expired;
}

double ServeTally::earliest_deadline(const std::vector<int64_t>& ids) const
{
  double earliest = std::numeric_limits<double>::infinity();
  for (int64_t id : ids)
    earliest = std::min(earliest, deadline(id));
  return earliest;
}

void ServeTally::iteration(int instance, double now, double seconds, double gpu_seconds, int64_t batch,
                           double kv_used_share)
{
  const auto i = static_cast<size_t>(instance);
  busy_s_[i] += gpu_seconds;
  batch_seconds_ += static_cast<double>(batch) * seconds;
  if (now < next_sample_[i])
    return;
  const double span = now - row_s_[i];
  // At most 1: the busy seconds and the span are sums of the same iterations' times, rounded apart.
  samples_.push_back(
      {now, instance, batch, kv_used_share, span > 0 ? std::min(1.0, (busy_s_[i] - busy_at_row_[i]) / span) : 0});
  row_s_[i]       = now;
  busy_at_row_[i] = busy_s_[i];
  next_sample_[i] = now + period_s_;
}

CsvWriter ServeTally::instances_table() const
{
  // A stretch of decode-only iterations is reported when the stretch ends (ServeInstance), after
  // later iterations of other instances may have been.
  std::vector<InstanceSample> sorted = samples_;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const InstanceSample& a, const InstanceSample& b) { return a.time_s < b.time_s; });
  CsvWriter t;
  t.header = {"time_s", "instance", "batch", "kv_used_share", "busy_share", "role"};
  for (const InstanceSample& s : sorted) {
    t.add_numbers(
        {s.time_s, static_cast<double>(s.instance), static_cast<double>(s.batch), s.kv_used_share, s.busy_share});
    t.rows.back().push_back(roles_[static_cast<size_t>(s.instance)]);
  }
  return t;
}

double ServeTally::queued_request_seconds() const
{
  double total = 0;
  for (const Record& r : records_)
    if (r.finish_s >= 0)
      total += r.finish_s - r.arrival_s;
  return std::max(0.0, total - batch_seconds_);
}

double ServeTally::sum_over_finished(const std::vector<double>& per_request) const
{
  double total = 0;
  for (size_t i = 0; i < records_.size() && i < per_request.size(); ++i)
    if (records_[i].finish_s >= 0)
      total += per_request[i];
  return total;
}

double ServeTally::weight_wait_seconds() const
{
  const auto spans = loads_.loading_spans(busy_s_.size(), end_s_);
  double total     = 0;
  for (const Record& r : records_)
    if (r.finish_s >= 0 && r.instance >= 0)
      for (const auto& [start, end] : spans[static_cast<size_t>(r.instance)])
        total += std::max(0.0, std::min(end, r.first_s) - std::max(start, r.arrival_s));
  return total;
}

void ServeTally::cut_iteration(int instance, double seconds)
{
  busy_s_[static_cast<size_t>(instance)] += seconds;
}

bool ServeTally::meets(const Record& r) const
{
  return r.finish_s >= 0 && r.first_s - r.arrival_s <= slo_.ttft_s && r.gaps.statistic() <= slo_.tbt_s;
}

const MetricTable& ServeTally::metric_table()
{
  static const MetricTable t =
      joined(joined(joined(request_metrics(), SwapTally::metric_table()), LoadTally::metric_table()),
             ScaleTally::metric_table());
  return t;
}

const MetricTable& ServeTally::request_metrics()
{
  static const MetricTable t = {
      {"requests", MetricUnit::Count, "requests of the workload (a trace's: within its window and max_requests)"},
      {"completed", MetricUnit::Count, "requests that finished"},
      {"rejected", MetricUnit::Count, "requests turned away (no instance up that could take them, or early rejection)"},
      {"failed", MetricUnit::Count, "requests lost when an instance's host failed, before their last token"},
      {"timed_out", MetricUnit::Count,
       "requests whose client's timeout (workload.client_timeout) passed before their last token came out; not "
       "completed"},
      {"slo_attainment", MetricUnit::Ratio, "requests that completed within the SLO / requests"},
      {"goodput_rps", MetricUnit::PerSecond, "requests meeting the SLO per second of the phase"},
      {"mean_ttft_s", MetricUnit::Seconds, "mean time to first token of the completed requests (0 when none)"},
      {"p50_ttft_s", MetricUnit::Seconds, "median of the same (0 when none)"},
      {"p90_ttft_s", MetricUnit::Seconds, "90th percentile of the same (0 when none)"},
      {"p99_ttft_s", MetricUnit::Seconds, "99th percentile of the same (0 when none)"},
      {"mean_tpot_s", MetricUnit::Seconds,
       "mean time per output token after the first (a request's mean token gap), over the completed requests with "
       "at least one gap (0 when none)"},
      {"p90_tpot_s", MetricUnit::Seconds, "90th percentile of the same (0 when none)"},
      {"p99_tpot_s", MetricUnit::Seconds, "99th percentile of the same (0 when none)"},
      {"mean_slo_tbt_s", MetricUnit::Seconds,
       "mean of the requests' TBT statistic that the SLO limits (slo.tbt_statistic: by default the mean of a "
       "request's longest 10% of gaps), over the same requests (0 when none)"},
      {"p90_slo_tbt_s", MetricUnit::Seconds, "90th percentile of the same (0 when none)"},
      {"p99_slo_tbt_s", MetricUnit::Seconds, "99th percentile of the same (0 when none)"},
      {"tokens_per_s", MetricUnit::PerSecond,
       "output tokens of the requests that neither failed nor timed out, per second of the phase"},
      {"output_tokens", MetricUnit::Count, "output tokens of the requests that neither failed nor timed out"},
      {"prefix_hit_ratio", MetricUnit::Ratio,
       "prefix blocks whose KV was reused / prefix blocks of the requests not rejected (one that timed out "
       "before admission counts as missed; 0 for traces without blocks)"},
      {"load_imbalance", MetricUnit::Number,
       "requests the router sent to its busiest instance / their mean over the instances that received any (1: "
       "even; the prefill instances for mooncake; none: n/a)"},
      {"kv_bytes_transferred", MetricUnit::Bytes,
       "network bytes of KV: pool reads and writes to other hosts and prefill to decode for mooncake; new KV and the "
       "attention queries and results for fastdecode; 0 for vllm"},
      {"pool_peak_bytes", MetricUnit::Bytes, "the most bytes the KV pool held (mooncake; 0 for the others)"},
      {"evicted_blocks", MetricUnit::Count, "KV blocks the pool evicted (mooncake; 0 for the others)"},
      {"kv_drain_bytes", MetricUnit::Bytes,
       "bytes of KV blocks written to the pool or SSD tier after the last request ended: the backlog written in the "
       "background, which later phases contend with (mooncake; 0 for the others)"},
      {"kv_drain_end_s", MetricUnit::Seconds,
       "when the last of them was written, in simulated time like the phase's end_s (the phase's end when none "
       "was left); the simulation's end includes it"},
      {"gpu_utilization", MetricUnit::Ratio,
       "the time the GPUs' flop would take at their peak flops / the time the instances held them "
       "(instance_time_s), over the instances that existed: model flops utilisation (MFU). It grows with the "
       "batch; a memory-bound decode reads low (counted as busy, 1, without the model's shape or the GPU's flops "
       "and hbm_bandwidth)"},
      {"gpu_hbm_utilization", MetricUnit::Ratio,
       "the same for the HBM bytes the iterations read and wrote, at the GPUs' peak hbm_bandwidth"},
      {"gpu_busy_share", MetricUnit::Ratio,
       "the GPUs' busy time (iterations, KV swap moves) / instance_time_s: an iteration counts all its time, "
       "memory-bound or not, as a GPU utilisation counter of the driver reads; near 1 whenever requests keep "
       "continuous batching going"},
      {"mean_concurrency", MetricUnit::Number,
       "sequences in the instances' batches, averaged over the phase's time (Little's L, from the instances' side)"},
      {"preemptions", MetricUnit::Count,
       "sequences preempted to free KV blocks (their KV dropped and recomputed later, or swapped out)"},
      {"recomputed_tokens", MetricUnit::Count,
       "tokens whose KV a preemption by recompute dropped and that were computed again: what the sequence had "
       "computed, less the prompt blocks the prefix cache still held when it was admitted again"},
      {"bad_lines", MetricUnit::Count, "malformed trace lines skipped (skip_bad_lines; 0 otherwise)"},
  };
  return t;
}

Metrics ServeTally::metrics(size_t bad_lines, const ServeTotals& system) const
{
  std::vector<double> ttft, tpot, slo_tbt;
  double met = 0, rejected = 0, failed = 0, timed_out = 0, tokens = 0, blocks = 0, hits = 0;
  for (const Record& r : records_) {
    rejected += r.rejected ? 1 : 0;
    failed += r.failed ? 1 : 0;
    timed_out += r.timed_out ? 1 : 0;
    // A request that failed or was abandoned wasted its tokens.
    tokens += r.failed || r.timed_out ? 0 : static_cast<double>(r.tokens);
    if (!r.rejected) {  // a rejected prompt never ran: its blocks were not looked up
      blocks += static_cast<double>(r.blocks);
      hits += static_cast<double>(r.hit_blocks);
    }
    if (r.finish_s < 0)
      continue;
    met += meets(r) ? 1 : 0;
    ttft.push_back(r.first_s - r.arrival_s);
    if (r.gaps.gaps() > 0) {
      tpot.push_back(r.gaps.mean());
      slo_tbt.push_back(r.gaps.statistic());
    }
  }
  const double n = static_cast<double>(records_.size()), span = end_s_ - start_s_;
  const double completed = static_cast<double>(ttft.size());
  double busy            = 0;
  for (double b : busy_s_)
    busy += b;
  const double held = system.instance_time_s;
  Metrics m         = {{"requests", n},
                       {"completed", completed},
                       {"rejected", rejected},
                       {"failed", failed},
                       {"timed_out", timed_out},
                       {"slo_attainment", n > 0 ? met / n : 0},
                       {"goodput_rps", span > 0 ? met / span : 0},
                       {"mean_ttft_s", mean_of(ttft)},
                       {"p50_ttft_s", percentile(ttft, 0.50)},
                       {"p90_ttft_s", percentile(ttft, 0.90)},
                       {"p99_ttft_s", percentile(ttft, 0.99)},
                       {"mean_tpot_s", mean_of(tpot)},
                       {"p90_tpot_s", percentile(tpot, 0.90)},
                       {"p99_tpot_s", percentile(tpot, 0.99)},
                       {"mean_slo_tbt_s", mean_of(slo_tbt)},
                       {"p90_slo_tbt_s", percentile(slo_tbt, 0.90)},
                       {"p99_slo_tbt_s", percentile(slo_tbt, 0.99)},
                       {"tokens_per_s", span > 0 ? tokens / span : 0},
                       {"output_tokens", tokens},
                       {"prefix_hit_ratio", blocks > 0 ? hits / blocks : 0},
                       {"load_imbalance", load_imbalance(system.routed_instances)},
                       {"kv_bytes_transferred", system.kv_B_transferred},
                       {"pool_peak_bytes", system.pool_peak_B},
                       {"evicted_blocks", system.evicted_blocks},
                       {"kv_drain_bytes", system.drain_B},
                       {"kv_drain_end_s", std::max(system.drain_end_s, end_s_)},
                       {"gpu_utilization", held > 0 ? system.gpu_use.compute_s / held : 0},
                       {"gpu_hbm_utilization", held > 0 ? system.gpu_use.hbm_s / held : 0},
                       {"gpu_busy_share", held > 0 ? busy / held : 0},
                       {"mean_concurrency", span > 0 ? batch_seconds_ / span : 0},
                       {"preemptions", system.preemptions},
                       {"recomputed_tokens", system.recomputed_tokens},
                       {"bad_lines", static_cast<double>(bad_lines)}};
  for (const auto& metric : swaps_.metrics())
    m.push_back(metric);
  for (const auto& metric : loads_.metrics(start_s_))
    m.push_back(metric);
  for (const auto& metric : scaling_metrics(system))
    m.push_back(metric);
  return m;
}

double ServeTally::load_imbalance(int64_t routed) const
{
  std::vector<double> sent(static_cast<size_t>(std::max<int64_t>(routed, 0)), 0);
  double total = 0;
  for (const Record& r : records_)
    if (r.instance >= 0 && r.instance < routed) {
      sent[static_cast<size_t>(r.instance)] += 1;
      total += 1;
    }
  // Over the instances that received requests: an autoscaler leaves some never allocated.
  const auto used = static_cast<double>(std::count_if(sent.begin(), sent.end(), [](double n) { return n > 0; }));
  return total > 0 ? *std::max_element(sent.begin(), sent.end()) / (total / used) : NAN;
}

Metrics ServeTally::scaling_metrics(const ServeTotals& system) const
{
  std::vector<ScaleTally::Request> requests;
  std::vector<std::vector<double>> first_tokens(busy_s_.size());  // per instance, in time order
  for (const Record& r : records_) {
    requests.push_back({r.arrival_s, meets(r)});
    if (r.instance >= 0 && r.first_s >= 0)
      first_tokens[static_cast<size_t>(r.instance)].push_back(r.first_s);
  }
  for (auto& times : first_tokens)
    std::sort(times.begin(), times.end());
  const auto serving_at = [this](int instance, double t) {
    return loads_.empty() ? t + provisioning_s_ : loads_.ready_after(instance, t);
  };
  const auto first_token_at = [&first_tokens](int instance, double t) {
    const auto& times = first_tokens[static_cast<size_t>(instance)];
    const auto it     = std::lower_bound(times.begin(), times.end(), t);
    return it == times.end() ? std::numeric_limits<double>::infinity() : *it;
  };
  return scaling_.metrics(requests, system.instance_time_s, static_cast<int64_t>(busy_s_.size()), serving_at,
                          first_token_at);
}

CsvWriter ServeTally::requests_table() const
{
  CsvWriter t;
  t.header       = {"request",  "arrival_s", "first_token_s", "finish_s",   "ttft_s",
                    "tpot_s",   "slo_tbt_s", "output_tokens", "hit_blocks", "blocks",
                    "instance", "met_slo",   "rejected",      "failed",     "timed_out"};
  t.numeric_rows = [this](size_t i, std::vector<double>& row) {
    if (i >= records_.size())
      return false;
    const Record& r = records_[i];
    const bool done = r.finish_s >= 0;
    row             = {static_cast<double>(i),
                       r.arrival_s,
           done ? r.first_s : -1,
                       r.finish_s,
           done ? r.first_s - r.arrival_s : -1,
           done ? r.gaps.mean() : -1,
           done ? r.gaps.statistic() : -1,
                       static_cast<double>(r.output_tokens),
                       static_cast<double>(r.hit_blocks),
                       static_cast<double>(r.blocks),
                       static_cast<double>(r.instance),
           meets(r) ? 1.0 : 0.0,
           r.rejected ? 1.0 : 0.0,
           r.failed ? 1.0 : 0.0,
           r.timed_out ? 1.0 : 0.0};
    return true;
  };
  return t;
}

}  // namespace llsim
