#include "sim/serve/workload/request_trace.hpp"

#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/serve/workload/measured_requests.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <ctime>
#include <fstream>
#include <limits>

namespace llsim {

namespace {

// A line that cannot be read: its message, without the file and line.
struct BadLine : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Token counts and times are bounded so that sums of them stay exact in 64-bit integers and
// doubles: at most a trillion tokens per request, a billion seconds (31 years) after the first.
constexpr int64_t kMaxTokens = 1000000000000;
constexpr double kMaxSeconds = 1e9;

// A request of no prompt or no output cannot be served (traces log failed requests so).
const char* const kNoTokens =
    ": a request needs at least one token (skip_bad_lines, or trace stats' --skip-bad-lines, leaves such lines out)";

int64_t token_count(const nlohmann::json& v, const char* key)
{
  const auto it = v.find(key);
  if (it == v.end() || !it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > kMaxTokens)
    throw BadLine(std::string("'") + key + "' must be an integer from 1 to 10^12");
  if (it->get<int64_t>() == 0)
    throw BadLine(std::string("'") + key + "' is 0" + kNoTokens);
  return it->get<int64_t>();
}

TraceRequest mooncake_line(const std::string& line, int64_t block_tokens)
{
  const nlohmann::json v = nlohmann::json::parse(line, nullptr, false);
  if (v.is_discarded() || !v.is_object())
    throw BadLine("not a JSON object");
  TraceRequest r;
  const auto ts = v.find("timestamp");
  if (ts == v.end() || !ts->is_number() || !(ts->get<double>() >= 0) || !(ts->get<double>() <= kMaxSeconds * 1000))
    throw BadLine("'timestamp' must be a number of milliseconds from 0 to 10^12");
  r.arrival_s     = ts->get<double>() / 1000.0;
  r.input_tokens  = token_count(v, "input_length");
  r.output_tokens = token_count(v, "output_length");
  const auto ids  = v.find("hash_ids");
  if (ids == v.end() || !ids->is_array())
    throw BadLine("'hash_ids' must be a list of block ids");
  for (const auto& id : *ids) {
    if (!id.is_number_unsigned())  // nlohmann reads any integer that is not negative as unsigned, up to 2^64 - 1
      throw BadLine("'hash_ids' must hold integers from 0 to 18446744073709551615");
    r.hash_ids.push_back(id.get<uint64_t>());
  }
  const int64_t filled = (r.input_tokens + block_tokens - 1) / block_tokens;
  if (static_cast<int64_t>(r.hash_ids.size()) > filled)
    throw BadLine(std::to_string(r.hash_ids.size()) + " hash_ids are more blocks than its input_length of " +
                  std::to_string(r.input_tokens) + " tokens fills (" + std::to_string(filled) + " of " +
                  std::to_string(block_tokens) + " tokens)");
  return r;
}

// "2023-11-16 18:15:46.6805900" -> seconds since the epoch (UTC).
double azure_time(const std::string& text)
{
  std::tm tm{};
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, used = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2d %2d:%2d:%2d%n", &year, &month, &day, &hour, &minute, &second, &used) !=
          6 ||
      month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    throw BadLine("TIMESTAMP must look like 2023-11-16 18:15:46.6805900, got '" + text + "'");
  double fraction        = 0;
  const std::string rest = text.substr(static_cast<size_t>(used));
  if (!rest.empty()) {
    if (rest[0] != '.' || rest.size() == 1 || rest.find_first_not_of("0123456789", 1) != std::string::npos)
      throw BadLine("TIMESTAMP must look like 2023-11-16 18:15:46.6805900, got '" + text + "'");
    fraction = std::stod("0" + rest);
  }
  tm.tm_year     = year - 1900;
  tm.tm_mon      = month - 1;
  tm.tm_mday     = day;
  tm.tm_hour     = hour;
  tm.tm_min      = minute;
  tm.tm_sec      = second;
  const time_t t = timegm(&tm);  // normalises 2023-02-30 to March 2: such a date is refused
  if (tm.tm_mday != day || tm.tm_mon != month - 1 || tm.tm_year != year - 1900)
    throw BadLine("TIMESTAMP '" + text + "' is not a date");
  return static_cast<double>(t) + fraction;
}

int64_t csv_count(const CsvTable& t, size_t row, size_t col)
{
  const double v = t.number(row, col);
  if (!(v >= 0) || v != std::floor(v) || v > static_cast<double>(kMaxTokens))
    throw BadLine("column '" + t.header[col] + "' must be an integer from 1 to 10^12");
  if (v == 0)
    throw BadLine("column '" + t.header[col] + "' is 0" + kNoTokens);
  return static_cast<int64_t>(v);
}

void check_count(const std::string& file, size_t line, size_t requests)
{
  if (requests >= kMaxTraceRequests)
    throw ConfigError(file + ":" + std::to_string(line) + ": more than " + std::to_string(kMaxTraceRequests) +
                      " requests, llsim's limit for a trace");
}

RequestTrace read_mooncake(const std::string& file, bool skip_bad_lines, int64_t block_tokens)
{
  std::ifstream in = open_trace_file(file);
  RequestTrace trace;
  std::string line;
  size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    check_count(file, number, trace.requests.size());
    try {
      trace.requests.push_back(mooncake_line(line, block_tokens));
    } catch (const BadLine& e) {
      if (!skip_bad_lines)
        throw ConfigError(
            file + ":" + std::to_string(number) + ": " + e.what() +
            " (expected {\"timestamp\": ms, \"input_length\": n, \"output_length\": n, \"hash_ids\": [...]})");
      trace.skipped_lines += 1;
    }
  }
  return trace;
}

RequestTrace read_csv_trace(const std::string& file, TraceFormat format, bool skip_bad_lines)
{
  RequestTrace trace;
  std::vector<size_t> ragged;  // lines with another number of fields
  const CsvTable t = read_csv_file(file, &ragged);
  const bool azure = format == TraceFormat::Azure;
  // The first bad line in the file is the one reported.
  size_t next_ragged       = 0;
  const auto ragged_before = [&](size_t line) {
    for (; next_ragged < ragged.size() && ragged[next_ragged] < line; ++next_ragged) {
      if (!skip_bad_lines)
        throw ConfigError(file + ":" + std::to_string(ragged[next_ragged]) + ": expected " +
                          std::to_string(t.header.size()) + " fields (" + join(t.header, ",") + ")");
      trace.skipped_lines += 1;
    }
  };
  const size_t time   = t.column(azure ? "TIMESTAMP" : "Timestamp");
  const size_t input  = t.column(azure ? "ContextTokens" : "Request tokens");
  const size_t output = t.column(azure ? "GeneratedTokens" : "Response tokens");
  double first        = NAN;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    ragged_before(t.line_of_row[r]);
    check_count(file, t.line_of_row[r], trace.requests.size());
    try {
      TraceRequest q;
      double at = 0;
      if (azure) {
        at = azure_time(t.rows[r][time]);
      } else {
        at = t.number(r, time);
        if (!(at >= 0) || !(at <= kMaxSeconds))
          throw BadLine("column 'Timestamp' must be seconds from 0 to 10^9");
      }
      q.input_tokens  = csv_count(t, r, input);
      q.output_tokens = csv_count(t, r, output);
      if (std::isnan(first))
        first = at;
      if (std::abs(at - first) > kMaxSeconds)
        throw BadLine("more than 10^9 s (31 years) from the first request");
      q.arrival_s = at - first;
      trace.requests.push_back(q);
    } catch (const BadLine& e) {
      if (!skip_bad_lines)
        throw ConfigError(file + ":" + std::to_string(t.line_of_row[r]) + ": " + e.what());
      trace.skipped_lines += 1;
    } catch (const ConfigError& e) {  // a cell that is not a number
      if (!skip_bad_lines)
        throw;
      trace.skipped_lines += 1;
    }
  }
  ragged_before(std::numeric_limits<size_t>::max());
  return trace;
}

}  // namespace

std::ifstream open_trace_file(const std::string& file)
{
  return open_input_file(file, "a trace");
}

constexpr std::pair<TraceFormat, const char*> kFormats[] = {{TraceFormat::Mooncake, "mooncake"},
                                                            {TraceFormat::Azure, "azure"},
                                                            {TraceFormat::BurstGpt, "burstgpt"},
                                                            {TraceFormat::Requests, "requests"},
                                                            {TraceFormat::VllmBenchmark, "vllm_benchmark"}};

bool parse_trace_format(const std::string& name, TraceFormat* format)
{
  for (const auto& [f, n] : kFormats)
    if (name == n) {
      *format = f;
      return true;
    }
  return false;
}

const char* trace_format_name(TraceFormat format)
{
  for (const auto& [f, n] : kFormats)
    if (f == format)
      return n;
  return "?";
}

const char* trace_format_names()
{
  return "mooncake, azure, burstgpt, requests or vllm_benchmark";
}

RequestTrace read_request_trace(const std::string& file, TraceFormat format, bool skip_bad_lines,
                                int64_t mooncake_block_tokens)
{
  RequestTrace trace = format == TraceFormat::Mooncake   ? read_mooncake(file, skip_bad_lines, mooncake_block_tokens)
                       : format == TraceFormat::Requests ? read_request_log(file, skip_bad_lines)
                       : format == TraceFormat::VllmBenchmark ? read_vllm_benchmark(file)
                                                              : read_csv_trace(file, format, skip_bad_lines);
  if (trace.requests.empty())
    throw ConfigError(
        file + ": no requests in the trace" +
        (trace.skipped_lines > 0 ? " (" + std::to_string(trace.skipped_lines) + " bad lines skipped)" : ""));
  return trace;
}

}  // namespace llsim
