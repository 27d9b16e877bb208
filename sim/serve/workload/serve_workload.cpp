#include "sim/serve/workload/serve_workload.hpp"

#include "sim/core/distribution.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/random.hpp"
#include "sim/core/text.hpp"
#include "sim/serve/workload/time_warp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace llsim {

namespace {

const ParamTable& rate_step_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("from", Dimension::Duration, "trace time (after start) the step begins").at_least(0),
      ParamSpec::quantity("scale", Dimension::Number, "arrivals come this many times faster").positive(),
  };
  return t;
}

// `span_s`: trace time (after start) of the last request the workload keeps; a step that begins
// at or after it changes no arrival.
TimeWarp parse_rate_profile(const Params& p, double span_s)
{
  std::vector<std::pair<double, double>> steps;
  const YamlRef list = p.raw("rate_profile");
  if (!list.node().IsSequence())
    list.fail("expected a list of {from, scale}");
  for (size_t i = 0; i < list.node().size(); ++i) {
    const Params step(list.item(i), rate_step_params());
    if (!steps.empty() && step.quantity("from") <= steps.back().first)
      step.fail("from", "steps must be in increasing time order");
    const double from_s = step.quantity("from");
    if (from_s >= span_s) {
      const int digits = digits_to_tell_apart(from_s, span_s, readable_duration);
      step.fail("from", "the step begins at " + readable_duration(from_s, digits) +
                            ", after the workload's requests (they arrive within " + readable_duration(span_s, digits) +
                            " of start): it would change nothing");
    }
    steps.emplace_back(step.quantity("from"), step.quantity("scale"));
  }
  return TimeWarp(p.quantity("rate_scale"), std::move(steps));
}

}  // namespace

const ParamTable& serve_workload_params()
{
  static const ParamTable t = {
      ParamSpec::text("trace", "request trace file (relative to the scenario)").may_be_absent(),
      ParamSpec::one_of("format", {"mooncake", "azure", "burstgpt", "requests", "vllm_benchmark"},
                        "trace format; requests: a run's per-request log (absent: mooncake for a .jsonl file, "
                        "vllm_benchmark for .json)")
          .may_be_absent(),
      ParamSpec::flag("skip_bad_lines", "skip and count malformed trace lines instead of failing").defaults("false"),
      ParamSpec::integer("requests", "synthetic: number of requests")
          .may_be_absent()
          .at_least(1)
          .at_most(static_cast<double>(kMaxTraceRequests)),
      ParamSpec::distribution("arrival", Dimension::Duration, "synthetic: time between arrivals")
          .may_be_absent()
          .at_least(0),
      ParamSpec::distribution(
          "input_tokens", Dimension::Number,
          "synthetic: prompt tokens (rounded, at least 1; a mean below 1 is refused); with a trace, drawn "
          "instead of its own")
          .may_be_absent()
          .at_least(0),
      ParamSpec::distribution(
          "output_tokens", Dimension::Number,
          "synthetic: output tokens (rounded, at least 1; a mean below 1 is refused); with a trace, drawn "
          "instead of its own")
          .may_be_absent()
          .at_least(0),
      ParamSpec::integer("block_tokens", "mooncake: tokens per prefix block id (absent: 512, the release's)")
          .may_be_absent()
          .at_least(1)
          .at_most(1e6),
      ParamSpec::quantity("rate_scale", Dimension::Number, "arrivals come this many times faster")
          .defaults("1")
          .positive(),
      ParamSpec::list("rate_profile",
                      "[{from, scale}]: from trace time `from` (after start) on, arrivals come "
                      "`scale` times faster (before the first step, rate_scale times); a step after the last "
                      "request kept is refused")
          .defaults("[]")
          .with_fields(rate_step_params()),
      ParamSpec::quantity("start", Dimension::Duration,
                          "requests arriving before this, in the trace's own time (before rate_scale), are left out")
          .defaults("0s")
          .at_least(0),
      ParamSpec::quantity("duration", Dimension::Duration,
                          "keep the requests arriving in [start, start + duration) of the trace's own time")
          .may_be_absent()
          .positive(),
      ParamSpec::integer("max_requests", "keep at most this many requests (the first ones)")
          .may_be_absent()
          .at_least(1),
      ParamSpec::integer("max_input_tokens", "longer prompts are truncated to this").may_be_absent().at_least(1),
      ParamSpec::integer("max_output_tokens", "longer outputs are truncated to this").may_be_absent().at_least(1),
      ParamSpec::quantity("client_timeout", Dimension::Duration,
                          "the clients' timeout: a request not finished this long after it arrived is aborted "
                          "(dropped from its instance at the first iteration boundary after it, its KV freed) and "
                          "counted as timed_out, not completed (absent: clients wait for ever)")
          .may_be_absent()
          .positive(),
  };
  return t;
}

namespace {

// A request has at least one token: draws are rounded up to 1, but a distribution whose draws
// are mostly below 1 describes no workload.
std::shared_ptr<const Distribution> token_distribution(const Params& p, const char* key)
{
  auto d = p.distribution(key);
  if (d->mean() < 1)
    p.fail(key, "a request has at least one token; these draws have a mean of " + format_number(d->mean()));
  return d;
}

int64_t tokens(const Distribution& d, Rng& rng)
{
  return std::max<int64_t>(1, std::llround(std::min(d.sample(rng), 1e12)));
}

std::vector<TraceRequest> synthetic(const Params& p, uint64_t seed, const std::string& stream)
{
  for (const char* key : {"requests", "arrival", "input_tokens", "output_tokens"})
    if (!p.has(key))
      p.fail(key, "required for a synthetic workload (or give a 'trace')");
  for (const char* key : {"format", "block_tokens"})
    if (p.has(key))
      p.fail(key, "only for a trace (this workload is synthetic)");
  if (p.flag("skip_bad_lines"))
    p.fail("skip_bad_lines", "only for a trace");
  const auto arrival = p.distribution("arrival");
  const auto input = token_distribution(p, "input_tokens"), output = token_distribution(p, "output_tokens");
  Rng rng = Rng::stream(seed, stream);
  std::vector<TraceRequest> out(static_cast<size_t>(p.integer("requests")));
  double t = 0;
  for (auto& r : out) {
    r.arrival_s     = t;
    r.input_tokens  = tokens(*input, rng);
    r.output_tokens = tokens(*output, rng);
    t += arrival->sample(rng);
  }
  return out;
}

// The trace's arrivals with lengths drawn from the given distributions (vLLM's benchmark replays
// a trace's times with synthetic lengths this way); prefix blocks no longer match and are dropped.
void redraw_lengths(const Params& p, std::vector<TraceRequest>& requests, uint64_t seed, const std::string& stream)
{
  if (!p.has("input_tokens") && !p.has("output_tokens"))
    return;
  const auto input  = p.has("input_tokens") ? token_distribution(p, "input_tokens") : nullptr;
  const auto output = p.has("output_tokens") ? token_distribution(p, "output_tokens") : nullptr;
  Rng rng           = Rng::stream(seed, stream);
  for (TraceRequest& r : requests) {
    if (input) {
      r.input_tokens = tokens(*input, rng);
      r.hash_ids.clear();
    }
    if (output)
      r.output_tokens = tokens(*output, rng);
  }
}

}  // namespace

ServeWorkload load_serve_workload(const Params& p, uint64_t seed, const std::string& stream)
{
  ServeWorkload w;
  if (p.has("client_timeout"))
    w.client_timeout_s = p.quantity("client_timeout");
  if (p.has("block_tokens"))
    w.block_tokens = p.integer("block_tokens");
  if (p.has("trace")) {
    for (const char* key : {"requests", "arrival"})
      if (p.has(key))
        p.fail(key, "a synthetic workload's key; this workload replays a trace's arrivals");
    const std::string file = p.path("trace");
    TraceFormat format     = TraceFormat::Mooncake;
    if (p.has("format")) {
      parse_trace_format(p.text("format"), &format);  // one of its words: Params checked it
    } else if (file.size() >= 5 && file.compare(file.size() - 5, 5, ".json") == 0) {
      format = TraceFormat::VllmBenchmark;
    } else if (file.size() < 6 || file.compare(file.size() - 6, 6, ".jsonl") != 0) {
      p.fail("trace", std::string("give its format (") + trace_format_names() +
                          "); only a .jsonl file is taken as mooncake and a .json file as vllm_benchmark");
    }
    if (format != TraceFormat::Mooncake && p.has("block_tokens"))
      p.fail("block_tokens", "only the mooncake format has prefix blocks");
    RequestTrace trace;
    try {
      trace = read_request_trace(file, format, p.flag("skip_bad_lines"), w.block_tokens);
    } catch (const ConfigError& e) {
      p.fail("trace", e.what());
    }
    w.requests  = std::move(trace.requests);
    w.bad_lines = trace.skipped_lines;
    redraw_lengths(p, w.requests, seed, stream);
  } else {
    w.requests = synthetic(p, seed, stream);
  }
  // Arrival order, ties in file order (a synthetic workload and most traces are in it already);
  // then the window, the count and the truncations.
  const auto by_arrival = [](const TraceRequest& a, const TraceRequest& b) { return a.arrival_s < b.arrival_s; };
  if (!std::is_sorted(w.requests.begin(), w.requests.end(), by_arrival))
    std::stable_sort(w.requests.begin(), w.requests.end(), by_arrival);
  const double t0       = w.requests.empty() ? 0 : w.requests.front().arrival_s;
  const double start    = p.quantity("start");
  const double end      = p.has("duration") ? start + p.quantity("duration") : std::numeric_limits<double>::infinity();
  const size_t keep     = p.has("max_requests") ? static_cast<size_t>(p.integer("max_requests")) : w.requests.size();
  const double last     = w.requests.empty() ? 0 : w.requests.back().arrival_s - t0;
  const TimeWarp warp   = parse_rate_profile(p, std::min(last, end) - start);
  const int64_t max_in  = p.has("max_input_tokens") ? p.integer("max_input_tokens") : INT64_MAX;
  const int64_t max_out = p.has("max_output_tokens") ? p.integer("max_output_tokens") : INT64_MAX;
  // Kept requests move forward in place: a million-request trace is not copied.
  size_t kept = 0;
  for (size_t i = 0; i < w.requests.size() && kept < keep; ++i) {
    TraceRequest& r = w.requests[i];
    const double t  = r.arrival_s - t0;
    if (t < start || t >= end)
      continue;
    r.arrival_s        = warp.at(t - start);
    r.output_tokens    = std::max<int64_t>(1, std::min(r.output_tokens, max_out));
    r.input_tokens     = std::max<int64_t>(1, std::min(r.input_tokens, max_in));
    const auto covered = static_cast<size_t>((r.input_tokens + w.block_tokens - 1) / w.block_tokens);
    if (r.hash_ids.size() > covered)
      r.hash_ids.resize(covered);
    if (kept != i)
      w.requests[kept] = std::move(r);
    ++kept;
  }
  // A workload has requests and the first arrives at 0 s, so only a window that starts later
  // can be empty: located at the key that emptied it, which may be a --set.
  if (kept == 0) {
    const std::string span = "its requests arrive from 0 s to " + readable_duration(w.requests.back().arrival_s - t0);
    if (start > w.requests.back().arrival_s - t0)
      p.fail("start", "no request arrives after the window's start: " + span);
    const int digits = std::max(4, digits_to_tell_apart(start, end, readable_duration));
    p.fail("duration", "no request arrives in the window [" + readable_duration(start, digits) + ", " +
                           readable_duration(end, digits) + "): " + span);
  }
  w.requests.erase(w.requests.begin() + static_cast<std::ptrdiff_t>(kept), w.requests.end());
  w.requests.shrink_to_fit();
  return w;
}

}  // namespace llsim
