// The requests a serve phase replays, read and generated at load time.
//
//   workload: {trace: traces/mooncake_conversation_trace.jsonl, format: mooncake}     a real trace, or
//   workload: {requests: 1000, arrival: {dist: exponential, mean: 100ms},
//              input_tokens: {dist: uniform, min: 100, max: 2000}, output_tokens: 200}
//   common:   rate_scale: 1            arrivals come rate_scale times faster (2: twice the rate)
//             start: 0s, duration:     the window of the trace kept (before rate_scale)
//             max_requests:            keep the first N requests of the window
//             max_input_tokens, max_output_tokens:   longer requests are truncated to these
//                                      (a truncated prompt keeps the prefix blocks it still covers)
//             block_tokens: 512        tokens per prefix block id (hash_ids) of the trace
//             skip_bad_lines: false    a malformed trace line is an error with its line number,
//                                      or, when true, skipped and counted (metric bad_lines)
// Arrival times are seconds from the phase's start, sorted, ties in file order.
#pragma once
#include "sim/core/params.hpp"
#include "sim/serve/workload/request_trace.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace llsim {

struct ServeWorkload {
  std::vector<TraceRequest> requests;  // arrival order
  size_t bad_lines        = 0;
  int64_t block_tokens    = kMooncakeBlockTokens;                     // tokens per prefix block id
  double client_timeout_s = std::numeric_limits<double>::infinity();  // after its arrival, a request is aborted
};

const ParamTable& serve_workload_params();
ServeWorkload load_serve_workload(const Params& p, uint64_t seed, const std::string& stream);

}  // namespace llsim
