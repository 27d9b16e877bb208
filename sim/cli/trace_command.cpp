#include "sim/cli/trace_command.hpp"

#include "sim/cli/fault_trace_stats.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/percentile.hpp"
#include "sim/core/text.hpp"
#include "sim/serve/kv/prefix_cache.hpp"
#include "sim/serve/workload/request_trace.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace llsim {

namespace {

// A .json file whose document is an array: a fault trace of events (a vLLM result is an object).
bool looks_like_fault_trace(const std::string& file)
{
  if (file.size() < 5 || file.compare(file.size() - 5, 5, ".json") != 0)
    return false;
  std::ifstream in(file);
  char c = 0;
  while (in.get(c) && std::isspace(static_cast<unsigned char>(c)))
    ;
  return in && c == '[';
}

TraceFormat guess_format(const std::string& file)
{
  if (file.size() >= 5 && file.compare(file.size() - 5, 5, ".json") == 0)
    return TraceFormat::VllmBenchmark;
  if (file.size() >= 6 && file.compare(file.size() - 6, 6, ".jsonl") == 0)
    return TraceFormat::Mooncake;
  std::ifstream in(file);
  std::string header;
  std::getline(in, header);
  if (header.rfind("TIMESTAMP", 0) == 0)
    return TraceFormat::Azure;
  if (header.rfind("Timestamp", 0) == 0)
    return TraceFormat::BurstGpt;
  throw std::invalid_argument("cannot tell the format of '" + file + "': give --format " + trace_format_names());
}

std::vector<size_t> parse_sizes(const std::string& text, std::vector<std::string>* names)
{
  std::vector<size_t> sizes;
  for (const auto& raw : split(text, ',')) {
    const std::string s = trim(raw);
    if (s == "inf") {
      sizes.push_back(kUnboundedBlocks);
    } else {
      size_t used          = 0;
      unsigned long long v = 0;
      try {
        v = std::stoull(s, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (s.empty() || used != s.size() || s[0] == '-')
        throw std::invalid_argument("--cache-blocks expects sizes such as 1000,10000,inf; got '" + s + "'");
      sizes.push_back(static_cast<size_t>(v));
    }
    names->push_back(s);
  }
  return sizes;
}

nlohmann::json lengths(std::vector<double> v)
{
  double sum = 0;
  for (double x : v)
    sum += x;
  return {{"mean", sum / static_cast<double>(v.size())},
          {"p50", percentile(v, 0.5)},
          {"p90", percentile(v, 0.9)},
          {"p99", percentile(v, 0.99)},
          {"max", *std::max_element(v.begin(), v.end())}};
}

// A run's measured TTFT and time per output token (requests and vllm_benchmark formats): their
// percentiles into `j` and lines of `text`; nothing for a trace without measurements.
void measured_times(const RequestTrace& trace, nlohmann::json& j, std::ostringstream& text)
{
  std::vector<double> ttft, tpot;
  for (const auto& r : trace.requests) {
    if (!std::isnan(r.measured_ttft_s))
      ttft.push_back(r.measured_ttft_s);
    if (!std::isnan(r.measured_tpot_s))
      tpot.push_back(r.measured_tpot_s);
  }
  for (const auto& [name, key, values] : {std::make_tuple("TTFT", "measured_ttft_s", &ttft),
                                          std::make_tuple("time per output token", "measured_tpot_s", &tpot)}) {
    if (values->empty())
      continue;
    j[key]          = lengths(*values);
    const auto& l   = j[key];
    const auto time = [&](const char* at) { return with_si_prefix(l[at].get<double>(), "s", 4); };
    text << "  measured " << name << ": mean " << time("mean") << ", p50 " << time("p50") << ", p90 " << time("p90")
         << ", p99 " << time("p99") << ", max " << time("max") << "\n";
  }
}

}  // namespace

CLI::App* add_trace_command(CLI::App& app, TraceArguments& a)
{
  CLI::App* trace = app.add_subcommand("trace", "request traces");
  trace->require_subcommand(1);
  CLI::App* stats = trace->add_subcommand("stats", "summarise a request trace: the request rate, input and output "
                                                   "length percentiles and, for traces with prefix blocks, the ideal "
                                                   "prefix hit ratio of an LRU cache of each size (traces/README.md)");
  stats->add_option("TRACE", a.file, "the trace file")->required();
  stats
      ->add_option("--format", a.format,
                   "mooncake (JSONL with hash_ids), azure or burstgpt (CSV), requests (a run's "
                   "per-request JSON lines), vllm_benchmark (vLLM's benchmark result JSON) or infinitehbd "
                   "(a fault trace: JSON array of fault_start/fault_end events); default: mooncake for .jsonl, "
                   "infinitehbd for a .json array, vllm_benchmark for another .json, else from the CSV header")
      ->type_name("F");
  stats
      ->add_option("--cache-blocks", a.cache_blocks,
                   "cache sizes in 512-token blocks for the ideal prefix hit ratio ('inf': unbounded)")
      ->type_name("N,...");
  stats->add_flag("--json", a.json, "one JSON object on standard output instead of text");
  stats
      ->add_option("--nodes", a.nodes,
                   "a fault trace's node count, for MTBFs per node (default: the nodes with a fault in it)")
      ->type_name("N")
      ->check(CLI::Validator(
          [](const std::string& text) {
            return text.find_first_not_of("0123456789") == std::string::npos &&
                           text.find_first_not_of('0') != std::string::npos
                       ? std::string()
                       : "expected a whole number of nodes >= 1, got '" + text + "'";
          },
          "N >= 1"));
  stats->add_flag("--skip-bad-lines", a.skip_bad_lines,
                  "skip and count lines it cannot use (malformed, or of no tokens) instead of stopping at the first");
  return trace;
}

int trace_stats_command(const TraceArguments& a)
{
  const std::string& file = a.file;
  const bool json         = a.json;
  std::vector<std::string> size_names;
  const std::vector<size_t> sizes = parse_sizes(a.cache_blocks, &size_names);
  if (a.format == "infinitehbd" || (a.format.empty() && looks_like_fault_trace(file)))
    return fault_trace_stats(file, a.nodes, json);
  if (a.nodes != 0)
    throw std::invalid_argument("--nodes applies to a fault trace (--format infinitehbd) only");
  TraceFormat format;
  if (a.format.empty())
    format = guess_format(file);
  else if (!parse_trace_format(a.format, &format))
    throw std::invalid_argument(std::string("--format expects ") + trace_format_names() + " or infinitehbd, got '" +
                                a.format + "'");

  const RequestTrace trace = read_request_trace(file, format, a.skip_bad_lines);
  std::vector<double> in, out;
  double first = trace.requests.front().arrival_s, last = first;
  for (const auto& r : trace.requests) {
    in.push_back(static_cast<double>(r.input_tokens));
    out.push_back(static_cast<double>(r.output_tokens));
    first = std::min(first, r.arrival_s);
    last  = std::max(last, r.arrival_s);
  }
  const double n        = static_cast<double>(trace.requests.size());
  const double duration = last - first;
  nlohmann::json ratios = nlohmann::json::object();
  for (size_t k = 0; k < sizes.size(); ++k) {
    const double ratio    = ideal_prefix_hit_ratio(trace.requests, sizes[k]);
    ratios[size_names[k]] = std::isnan(ratio) ? nlohmann::json(nullptr) : nlohmann::json(ratio);
  }
  nlohmann::json j = {{"file", file},
                      {"format", trace_format_name(format)},
                      {"requests", trace.requests.size()},
                      {"skipped_lines", trace.skipped_lines},
                      {"duration_s", duration},
                      {"request_rate_per_s", duration > 0 ? nlohmann::json(n / duration) : nlohmann::json(nullptr)},
                      {"input_tokens", lengths(in)},
                      {"output_tokens", lengths(out)},
                      {"prefix_hit_ratio", ratios}};
  std::ostringstream measured;
  measured_times(trace, j, measured);
  if (json) {
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  std::ostringstream text;
  text << file << " (" << trace_format_name(format) << "): " << trace.requests.size() << " requests over " << std::fixed
       << std::setprecision(1) << duration << " s";
  if (duration > 0)
    text << ", " << std::fixed << std::setprecision(3) << n / duration << " requests/s";
  text << "\n";
  if (trace.skipped_lines > 0)
    text << "  skipped " << trace.skipped_lines << " lines it could not use (malformed, or of no tokens)\n";
  for (const auto& [name, key] : {std::make_pair("input", "input_tokens"), std::make_pair("output", "output_tokens")}) {
    const auto& l = j[key];
    text << "  " << name << " tokens: mean " << std::fixed << std::setprecision(1) << l["mean"].get<double>()
         << ", p50 " << std::setprecision(0) << l["p50"].get<double>() << ", p90 " << l["p90"].get<double>() << ", p99 "
         << l["p99"].get<double>() << ", max " << l["max"].get<double>() << "\n";
  }
  text << measured.str();
  text << "  ideal prefix hit ratio (LRU cache of N blocks):";
  for (const auto& name : size_names) {
    const auto& r = ratios[name];
    text << " " << name << ": " << (r.is_null() ? std::string("n/a (no prefix blocks)") : [&] {
      std::ostringstream s;
      s << std::fixed << std::setprecision(4) << r.get<double>();
      return s.str();
    }());
  }
  text << "\n";
  std::cout << text.str();
  return kExitOk;
}

}  // namespace llsim
