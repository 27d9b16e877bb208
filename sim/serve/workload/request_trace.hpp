// Inference request traces (traces/README.md): the Mooncake JSONL release (with prefix block
// hashes), the Azure LLM inference 2023 CSV and the BurstGPT CSV, and logs of real runs
// (sim/serve/workload/measured_requests.hpp). A reader returns the requests
// in file order with arrival times in seconds from the trace's start. A malformed line is a
// ConfigError naming the file and the line, unless `skip_bad_lines`, which counts it instead.
// JSON is read with nlohmann-json.
#pragma once
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace llsim {

struct TraceRequest {
  double arrival_s      = 0;
  int64_t input_tokens  = 0;
  int64_t output_tokens = 0;
  std::vector<uint64_t> hash_ids;  // prefix blocks (Mooncake only)
  // Measured in a real run (the requests and vllm_benchmark formats); NaN when not.
  double measured_ttft_s = std::numeric_limits<double>::quiet_NaN();
  double measured_tpot_s = std::numeric_limits<double>::quiet_NaN();  // (last - first token) / (output - 1)
};

enum class TraceFormat { Mooncake, Azure, BurstGpt, Requests, VllmBenchmark };
// The format named `name` (mooncake, azure, burstgpt, requests, vllm_benchmark); false when
// there is none.
bool parse_trace_format(const std::string& name, TraceFormat* format);
const char* trace_format_name(TraceFormat format);
// "mooncake, azure, burstgpt, requests or vllm_benchmark", for messages.
const char* trace_format_names();

struct RequestTrace {
  std::vector<TraceRequest> requests;
  size_t skipped_lines = 0;
  bool spaced_arrivals = false;  // a vLLM benchmark result without start_times: arrivals 1 / rate apart
};

// Tokens per prefix block id (hash_ids) in Mooncake's released traces.
inline constexpr int64_t kMooncakeBlockTokens = 512;

// `mooncake_block_tokens`: a Mooncake line with more hash_ids than its input_length fills in
// blocks of this many tokens is a bad line.
RequestTrace read_request_trace(const std::string& file, TraceFormat format, bool skip_bad_lines = false,
                                int64_t mooncake_block_tokens = kMooncakeBlockTokens);
// The trace file opened for reading; a ConfigError for a directory or a file that cannot be read.
std::ifstream open_trace_file(const std::string& file);

// At most this many requests per trace (about 2 GB held with Mooncake-sized prefixes).
inline constexpr size_t kMaxTraceRequests = 10000000;

}  // namespace llsim
