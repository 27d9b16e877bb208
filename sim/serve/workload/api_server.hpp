// A serve phase's `api_server:`: the time a request spends in the serving system's front end
// (HTTP handling, then the tokenizer over its prompt) before its engine sees it. TTFT counts from
// the request's arrival, so it includes this time. The front end is `processes` FIFO servers
// shared by the phase's entry points (by default one each, as vLLM runs one API server process
// per server unless --api-server-count says otherwise; required under autoscaling): a request takes the first process free, in arrival order,
// for per_request + per_input_token x its prompt's tokens. Both times are the user's measurement
// or assumption; the defaults (0) leave the front end out.
#pragma once
#include "sim/core/params.hpp"
#include "sim/serve/workload/request_trace.hpp"

#include <cstdint>
#include <vector>

namespace llsim {

struct ApiServerSpec {
  double per_request_s     = 0;
  double per_input_token_s = 0;
  int64_t processes        = 0;  // 0: one per entry point of the system
};

const ParamTable& api_server_params();
ApiServerSpec parse_api_server(const Params& p);

// When each request leaves the front end for its engine (seconds from the phase's start), the
// requests in arrival order over `processes` servers.
std::vector<double> api_server_exits(const std::vector<TraceRequest>& requests, const ApiServerSpec& spec,
                                     int64_t processes);

}  // namespace llsim
