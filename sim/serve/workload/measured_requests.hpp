// Readers for the measurements of a real serving run that users bring, as request traces
// (sim/serve/workload/request_trace.hpp) that also carry each request's measured TTFT and time per output
// token (`llsim trace stats` summarises them beside the lengths):
//   requests        JSON lines, one per request: {"request_id": any, "input_tokens": n,
//                   "output_tokens": n, "arrival_s": t, "first_token_s": t, "last_token_s": t},
//                   times in seconds on one clock (first token after arrival, last after first);
//   vllm_benchmark  the result JSON of vLLM's serving benchmark (--save-result): the lists
//                   input_lens, output_lens and ttfts (s), and optionally itls (s, per request),
//                   errors (a request with one is left out, counted as skipped) and start_times.
//                   Without start_times the file holds no arrival times: requests arrive
//                   1 / request_rate apart (all at 0 when request_rate is "inf"), which keeps
//                   the rate but not the benchmark's Poisson draws.
// A malformed line or field is a ConfigError naming the file and the line (for the JSON, the
// list and its index).
#pragma once
#include "sim/serve/workload/request_trace.hpp"

#include <string>

namespace llsim {

RequestTrace read_request_log(const std::string& file, bool skip_bad_lines);
RequestTrace read_vllm_benchmark(const std::string& file);

}  // namespace llsim
