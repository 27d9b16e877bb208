// `llsim calibrate --requests LOG --scenario S --phase P`: fits the operators model's
// coefficients to a real run's per-request times (a per-request log, format requests, or vLLM's
// benchmark result, format vllm_benchmark) by simulating that run. Each candidate is a
// `llsim run S` of its own (a SimGrid simulation owns its process) with the phase's workload
// replaced by the log and its iteration keys set to the candidate's
// (sim/calibrate/request_fit.hpp); the phase's iteration model must be `operators`.
#pragma once
#include "sim/calibrate/calibrate_command.hpp"
#include "sim/serve/cost/operator_costs.hpp"

#include <string>
#include <vector>

namespace llsim {

int calibrate_requests(const CalibrateArguments& a, const std::vector<std::string>& keys,
                       const OperatorCoefficients& start);

}  // namespace llsim
