#include "sim/serve/workload/measured_requests.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/json_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace llsim {

namespace {

struct BadField : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr double kMaxTokens  = 1e12;
constexpr double kMaxSeconds = 1e9;   // from the first request
constexpr double kMaxClock   = 1e11;  // a time on the log's clock (Unix time is about 1.7e9)

// A served request has at least one token in and one out.
int64_t count_of(const nlohmann::json& v, const std::string& what)
{
  if (!v.is_number_integer() || v.get<double>() < 1 || v.get<double>() > kMaxTokens)
    throw BadField(what + " must be an integer from 1 to 10^12");
  return v.get<int64_t>();
}

double seconds_of(const nlohmann::json& v, const std::string& what, double at_most = kMaxSeconds)
{
  if (!v.is_number() || !(v.get<double>() >= 0) || !(v.get<double>() <= at_most))
    throw BadField(what + " must be a number of seconds from 0 to " + (at_most == kMaxSeconds ? "10^9" : "10^11"));
  return v.get<double>();
}

const nlohmann::json& field(const nlohmann::json& v, const char* key)
{
  const auto it = v.find(key);
  if (it == v.end())
    throw BadField(std::string("'") + key + "' is missing");
  return *it;
}

// Time per output token after the first, from the first and last tokens' times.
double tpot(double first_to_last_s, int64_t output_tokens)
{
  return output_tokens > 1 ? first_to_last_s / static_cast<double>(output_tokens - 1)
                           : std::numeric_limits<double>::quiet_NaN();
}

TraceRequest log_line(const std::string& line, std::set<std::string>& ids)
{
  const nlohmann::json v = nlohmann::json::parse(line, nullptr, false);
  if (v.is_discarded() || !v.is_object())
    throw BadField("not a JSON object");
  const nlohmann::json& id_value = field(v, "request_id");
  if (!id_value.is_string() && !id_value.is_number_integer())
    throw BadField("'request_id' must be a string or an integer");
  const std::string id = id_value.dump();
  if (!ids.insert(id).second)
    throw BadField("request_id " + id + " appears twice");
  TraceRequest r;
  r.input_tokens       = count_of(field(v, "input_tokens"), "'input_tokens'");
  r.output_tokens      = count_of(field(v, "output_tokens"), "'output_tokens'");
  r.arrival_s          = seconds_of(field(v, "arrival_s"), "'arrival_s'", kMaxClock);
  const double first_s = seconds_of(field(v, "first_token_s"), "'first_token_s'", kMaxClock);
  const double last_s  = seconds_of(field(v, "last_token_s"), "'last_token_s'", kMaxClock);
  if (first_s < r.arrival_s || last_s < first_s)
    throw BadField("expected arrival_s <= first_token_s <= last_token_s");
  r.measured_ttft_s = first_s - r.arrival_s;
  r.measured_tpot_s = tpot(last_s - first_s, r.output_tokens);
  return r;
}

// Arrival times from the trace's first request, at most 10^9 s after it.
void from_first_arrival(const std::string& file, RequestTrace& trace)
{
  if (trace.requests.empty())
    return;
  double first = trace.requests.front().arrival_s;
  for (const TraceRequest& r : trace.requests)
    first = std::min(first, r.arrival_s);
  for (TraceRequest& r : trace.requests) {
    r.arrival_s -= first;
    if (r.arrival_s > kMaxSeconds)
      throw ConfigError(file + ": a request arrives more than 10^9 s (31 years) after the first");
  }
}

// The list `key`, of the benchmark's `n` requests (n is the first list's length).
const nlohmann::json& list(const nlohmann::json& doc, const char* key, size_t* n)
{
  const nlohmann::json& v = field(doc, key);
  if (!v.is_array() || (*n != 0 && v.size() != *n))
    throw BadField(std::string("'") + key + "' must be a list" + (*n ? " of " + std::to_string(*n) + " values" : ""));
  *n = v.size();
  return v;
}

double arrival_spacing(const nlohmann::json& doc)
{
  const auto rate = doc.find("request_rate");
  if (rate == doc.end() || (rate->is_string() && rate->get<std::string>() == "inf"))
    return 0;
  if (!rate->is_number() || !(rate->get<double>() > 0))
    throw BadField("'request_rate' must be a number of requests per second > 0, or \"inf\"");
  return 1 / rate->get<double>();
}

TraceRequest benchmark_request(const nlohmann::json& doc, size_t i, size_t n)
{
  const std::string at = "[" + std::to_string(i) + "]";
  TraceRequest r;
  r.input_tokens    = count_of(list(doc, "input_lens", &n)[i], "'input_lens'" + at);
  r.output_tokens   = count_of(list(doc, "output_lens", &n)[i], "'output_lens'" + at);
  r.measured_ttft_s = seconds_of(list(doc, "ttfts", &n)[i], "'ttfts'" + at);
  if (doc.contains("itls")) {
    double sum                 = 0;
    const nlohmann::json& gaps = list(doc, "itls", &n)[i];
    if (!gaps.is_array())
      throw BadField("'itls'" + at + " must be a list of seconds");
    // One gap between each two output tokens at most (fewer when a step streams several).
    if (static_cast<int64_t>(gaps.size()) > std::max<int64_t>(0, r.output_tokens - 1))
      throw BadField("'itls'" + at + " holds " + std::to_string(gaps.size()) + " gaps between tokens for " +
                     std::to_string(r.output_tokens) + " output tokens (at most " +
                     std::to_string(std::max<int64_t>(0, r.output_tokens - 1)) + ")");
    for (size_t k = 0; k < gaps.size(); ++k)
      sum += seconds_of(gaps[k], "'itls'" + at + "[" + std::to_string(k) + "]");
    r.measured_tpot_s = tpot(sum, r.output_tokens);
  }
  r.arrival_s = doc.contains("start_times")
                    ? seconds_of(list(doc, "start_times", &n)[i], "'start_times'" + at, kMaxClock)
                    : static_cast<double>(i) * arrival_spacing(doc);
  if (r.arrival_s > kMaxClock)
    throw BadField("'request_rate' puts request " + std::to_string(i) + " more than 10^11 s after the first");
  return r;
}

}  // namespace

RequestTrace read_request_log(const std::string& file, bool skip_bad_lines)
{
  std::ifstream in = open_trace_file(file);
  RequestTrace trace;
  std::set<std::string> ids;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    if (trace.requests.size() >= kMaxTraceRequests)
      throw ConfigError(file + ":" + std::to_string(number) + ": more than " + std::to_string(kMaxTraceRequests) +
                        " requests, llsim's limit for a trace");
    try {
      trace.requests.push_back(log_line(line, ids));
    } catch (const BadField& e) {
      if (!skip_bad_lines)
        throw ConfigError(
            file + ":" + std::to_string(number) + ": " + e.what() +
            " (expected {\"request_id\": ..., \"input_tokens\": n, \"output_tokens\": n, \"arrival_s\": t, "
            "\"first_token_s\": t, \"last_token_s\": t})");
      trace.skipped_lines += 1;
    }
  }
  from_first_arrival(file, trace);
  return trace;
}

RequestTrace read_vllm_benchmark(const std::string& file)
{
  std::ifstream in = open_trace_file(file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string content = text.str();
  const nlohmann::json doc  = parse_json_text(content, file, "vLLM's benchmark result, --save-result");
  RequestTrace trace;
  try {
    if (!doc.is_object())
      throw BadField("expected a JSON object with input_lens, output_lens and ttfts");
    // Without start_times and at a finite rate, arrivals are spaced evenly instead of as drawn.
    trace.spaced_arrivals =
        !doc.contains("start_times") && !(doc.contains("request_rate") && doc["request_rate"].is_string());
    size_t n = 0;
    list(doc, "input_lens", &n);
    if (n > kMaxTraceRequests)
      throw BadField("more than " + std::to_string(kMaxTraceRequests) + " requests, llsim's limit for a trace");
    const nlohmann::json* errors = doc.contains("errors") ? &list(doc, "errors", &n) : nullptr;
    for (size_t i = 0; i < n; ++i) {
      if (errors && !(*errors)[i].is_string() && !(*errors)[i].is_null())
        throw BadField("'errors'[" + std::to_string(i) + "] must be a text (empty: no error) or null");
      if (errors && (*errors)[i].is_string() && !(*errors)[i].get<std::string>().empty()) {
        trace.skipped_lines += 1;  // a failed request
        continue;
      }
      trace.requests.push_back(benchmark_request(doc, i, n));
    }
  } catch (const BadField& e) {
    throw ConfigError(file + ": " + e.what());
  }
  from_first_arrival(file, trace);
  return trace;
}

}  // namespace llsim
