#include "sim/serve/scaling/scale_tally.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

void ScaleTally::decision(const ScaleObservation& o, double time_s, int64_t proposed, int64_t decided)
{
  rows_.push_back({o, time_s, proposed, decided});
}

void ScaleTally::released(int instance, double time_s)
{
  for (Start& s : starts_)
    if (s.instance == instance && s.released_s < 0)
      s.released_s = time_s;
}

const MetricTable& ScaleTally::metric_table()
{
  static const MetricTable t = {
      {"instance_time_s", MetricUnit::Seconds,
       "seconds the instances held their GPUs: from allocation until given back or the phase's end (all of them "
       "the whole phase without autoscaling)"},
      {"peak_instances", MetricUnit::Count, "the most instances allocated at once"},
      {"cold_starts", MetricUnit::Count, "instances allocated after the phase's start that had to start again"},
      {"mean_cold_start_s", MetricUnit::Seconds,
       "mean time from a cold start's decision until the instance could serve: provisioning and weight load (cold "
       "starts released before serving left out; none: n/a)"},
      {"mean_scale_to_first_token_s", MetricUnit::Seconds,
       "mean time from a cold start's decision to the instance's first token (cold starts that served; none: n/a)"},
      {"scaling_requests", MetricUnit::Count,
       "requests that arrived while a cold start was under way (until it could serve or was released)"},
      {"scaling_slo_attainment", MetricUnit::Ratio, "the share of those that met the SLO (none: n/a)"},
  };
  return t;
}

Metrics ScaleTally::metrics(const std::vector<Request>& requests, double held_s, int64_t instances,
                            const std::function<double(int, double)>& serving_at,
                            const std::function<double(int, double)>& first_token_at) const
{
  int64_t peak = rows_.empty() ? instances : 0;
  for (const Row& r : rows_)
    peak = std::max({peak, r.o.allocated, r.decided});
  double ready_sum = 0, ready_n = 0, token_sum = 0, token_n = 0;
  std::vector<std::pair<double, double>> windows;  // cold starts under way: [decided, serving)
  for (const Start& s : starts_) {
    const double ready   = serving_at(s.instance, s.decided_s);
    const bool cancelled = s.released_s >= 0 && s.released_s < ready;
    const double until   = cancelled ? s.released_s : ready;
    windows.emplace_back(s.decided_s, until);
    if (cancelled)
      continue;
    if (std::isfinite(ready)) {
      ready_sum += ready - s.decided_s;
      ready_n += 1;
    }
    const double token = first_token_at(s.instance, s.decided_s);
    if (std::isfinite(token) && (s.released_s < 0 || token < s.released_s)) {
      token_sum += token - s.decided_s;
      token_n += 1;
    }
  }
  double during = 0, met = 0;
  for (const Request& r : requests)
    if (std::any_of(windows.begin(), windows.end(),
                    [&](const auto& w) { return r.arrival_s >= w.first && r.arrival_s < w.second; })) {
      during += 1;
      met += r.met ? 1 : 0;
    }
  return {{"instance_time_s", held_s},
          {"peak_instances", static_cast<double>(peak)},
          {"cold_starts", static_cast<double>(starts_.size())},
          {"mean_cold_start_s", ready_n > 0 ? ready_sum / ready_n : NAN},
          {"mean_scale_to_first_token_s", token_n > 0 ? token_sum / token_n : NAN},
          {"scaling_requests", during},
          {"scaling_slo_attainment", during > 0 ? met / during : NAN}};
}

CsvWriter ScaleTally::table() const
{
  CsvWriter t;
  t.header = {"time_s", "allocated", "serving", "queued", "running", "kv_used_share", "proposed", "decided"};
  for (const Row& r : rows_)
    t.add_numbers({r.time_s, static_cast<double>(r.o.allocated), static_cast<double>(r.o.serving), r.o.queued,
                   r.o.running, r.o.kv_used_share, static_cast<double>(r.proposed), static_cast<double>(r.decided)});
  return t;
}

}  // namespace llsim
