// Fitting the free coefficients of the operators model (sim/serve/cost/operator_costs.hpp) to measured
// times, as `llsim calibrate` does. Each measurement is a batch on a tensor-parallel degree and
// either a whole iteration's time or one operator's time per call. The fit minimises the sum of
// squared errors, each relative to its measurement's scale (Levenberg-Marquardt, Eigen), over
// the coefficients named, from a few
// starting points; the others keep their given values. Shares (the efficiencies) stay in (0, 1],
// the others >= 0.
#pragma once
#include "sim/platform/gpu_spec.hpp"
#include "sim/serve/cost/operator_costs.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llsim {

struct Measurement {
  BatchWork work;
  int64_t tp = 1;
  std::optional<Op> op;     // one operator's time, divided by `calls`; absent: the whole iteration
  double all_reduce_B = 0;  // > 0: instead, one all-reduce of these bytes
  double calls        = 1;
  double seconds      = 0;
  // What an error is relative to: `seconds` for a whole iteration; for one operator of a profile,
  // the time of all the operators measured with it (a layer), so that the fit weighs each
  // operator by its share of the time instead of letting a 2 us kernel count as much as a GEMM.
  double scale = 0;
  std::string where;  // file:line, for the per-point report
};

// A coefficient `llsim calibrate` can fit, as the operators model's key names it.
struct CoefficientSpec {
  const char* key;
  double OperatorCoefficients::*field;
  bool share;     // in (0, 1]
  bool duration;  // written with a time unit
};
const std::vector<CoefficientSpec>& fittable_coefficients();
// Coefficients live in an unbounded space for a solver: shares through a logistic; the others as
// |x| in units of a typical magnitude (1 us for durations), so that a coefficient can reach 0 and
// come back (an exponential would stall there).
double to_free(const CoefficientSpec& s, double value);
double from_free(const CoefficientSpec& s, double x);
// ConfigError naming the known keys for an unknown one.
const CoefficientSpec& coefficient(const std::string& key);

struct FitResult {
  OperatorCoefficients coefficients;
  std::vector<double> predicted;  // seconds, per measurement
  double mean_abs_error = 0;      // |predicted - measured| / scale, over the measurements fitted
  double max_abs_error  = 0;
};

class Calibration {
 public:
  Calibration(LlmModel model, GpuSpec gpu)
      : model_(std::move(model))
      , gpu_(gpu)
  {}

  double predict(const Measurement& m, const OperatorCoefficients& c) const;
  // Fits `keys` to `points`, starting from `start`.
  FitResult fit(const std::vector<Measurement>& points, const std::vector<std::string>& keys,
                const OperatorCoefficients& start) const;
  // (predicted - measured) / scale
  double error(const Measurement& m, const OperatorCoefficients& c) const
  {
    return (predict(m, c) - m.seconds) / m.scale;
  }
  // Mean absolute error on held-out points: the points dealt into `folds` groups in an
  // order drawn with `seed`, each group predicted by a fit to the others.
  double held_out_error(const std::vector<Measurement>& points, const std::vector<std::string>& keys,
                        const OperatorCoefficients& start, int folds, uint64_t seed) const;

 private:
  void check_determined(const std::vector<Measurement>& points, const std::vector<const CoefficientSpec*>& specs,
                        const OperatorCoefficients& start) const;

  LlmModel model_;
  GpuSpec gpu_;
};

}  // namespace llsim
