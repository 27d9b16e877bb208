#include "sim/serve/workload/api_server.hpp"

#include <functional>
#include <queue>

namespace llsim {

const ParamTable& api_server_params()
{
  static const ParamTable table = {
      ParamSpec::quantity("per_request", Dimension::Duration,
                          "front-end time of every request: HTTP handling and request checks (a measurement or "
                          "an assumption of yours)")
          .defaults("0s")
          .at_least(0)
          .at_most(3600),
      ParamSpec::quantity("per_input_token", Dimension::Duration,
                          "front-end time per prompt token: the tokenizer (a measurement or an assumption of yours)")
          .defaults("0s")
          .at_least(0)
          .at_most(1),
      ParamSpec::integer("processes", "front-end processes, shared by the phase's instances, each serving one "
                                      "request at a time; default: one per server requests enter (a vllm instance, "
                                      "whatever its pipeline engines; Mooncake's prefill instances)")
          .may_be_absent()
          .at_least(1)
          .at_most(1e6),
  };
  return table;
}

ApiServerSpec parse_api_server(const Params& p)
{
  ApiServerSpec s;
  s.per_request_s     = p.quantity("per_request");
  s.per_input_token_s = p.quantity("per_input_token");
  s.processes         = p.has("processes") ? p.integer("processes") : 0;
  return s;
}

std::vector<double> api_server_exits(const std::vector<TraceRequest>& requests, const ApiServerSpec& spec,
                                     int64_t processes)
{
  // The processes' next free times; requests arrive in order (the workload sorts them).
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (int64_t i = 0; i < processes; ++i)
    free_at.push(0);
  std::vector<double> exits;
  exits.reserve(requests.size());
  for (const TraceRequest& r : requests) {
    const double start = std::max(r.arrival_s, free_at.top());
    const double end   = start + spec.per_request_s + spec.per_input_token_s * static_cast<double>(r.input_tokens);
    free_at.pop();
    free_at.push(end);
    exits.push_back(end);
  }
  return exits;
}

}  // namespace llsim
