// Fitting the operators model's coefficients to a real run's per-request times by simulating
// that run (`llsim calibrate --requests`): each candidate set of coefficients is a whole
// simulation of the run's requests, and the fit minimises the mean |ln(simulated / measured)| of
// each request's TTFT and time per output token. A simulation is not differentiable in the
// coefficients (a batch forms or not), so the search is Nelder-Mead's simplex (Nelder and Mead,
// 1965) in the solver's free space (sim/calibrate/calibration.hpp), up to a number of simulations.
// The requests from `held_out_from` on take no part in the fit: their error is the held-out one.
#pragma once
#include "sim/calibrate/calibration.hpp"

#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace llsim {

// One request's times, measured or simulated; NaN where there is none (a TPOT needs 2 output
// tokens; a simulated request that did not complete has neither).
struct RequestTimes {
  double ttft_s = std::numeric_limits<double>::quiet_NaN();
  double tpot_s = std::numeric_limits<double>::quiet_NaN();
};

// The runs' per-request times, in the measured requests' order.
using SimulateRun = std::function<std::vector<RequestTimes>(const OperatorCoefficients&)>;

struct RequestErrors {
  std::vector<double> ttft, tpot;   // per request (simulated / measured - 1); NaN: not measured
  double fitted = 0, held_out = 0;  // mean |error| over the requests before and after held_out_from
};

// A request the simulation did not complete has an error of 1 on each time it has measured.
RequestErrors request_errors(const std::vector<RequestTimes>& measured, const std::vector<RequestTimes>& simulated,
                             size_t held_out_from);

struct RequestFitResult {
  OperatorCoefficients coefficients;
  std::vector<RequestTimes> simulated;  // at the coefficients found
  RequestErrors errors;
  int runs = 0;  // simulations made
};

// ConfigError when a coefficient moves no simulated time (the first simplex shows it).
RequestFitResult fit_by_simulation(const std::vector<RequestTimes>& measured, const std::vector<std::string>& keys,
                                   const OperatorCoefficients& start, const SimulateRun& simulate, size_t held_out_from,
                                   int max_runs);

}  // namespace llsim
