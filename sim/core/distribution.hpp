// Random values in scenarios. Wherever a parameter is declared as a distribution, the user writes
// either a plain value (a constant) or a mapping selected by `dist:`:
//   {dist: constant, value: 2ms}
//   {dist: exponential, mean: 2ms}
//   {dist: uniform, min: 1GB, max: 3GB}
//   {dist: lognormal, mean: 2TFlops, sigma: 0.5}     mean of the values; sigma of their logarithm
//   {dist: weibull, scale: 6h, shape: 0.7}
//   {dist: empirical, file: speeds.csv, column: speed} values in SI base units, drawn uniformly
// The unit of every value is the parameter's (a duration, a size, ...).
#pragma once
#include "sim/core/params.hpp"
#include "sim/core/random.hpp"

#include <memory>
#include <string>
#include <vector>

namespace llsim {

class Distribution {
 public:
  virtual ~Distribution()               = default;
  virtual double sample(Rng& rng) const = 0;
  virtual double mean() const           = 0;
  virtual double min_value() const      = 0;  // smallest value it can return (range checks)
};

std::shared_ptr<const Distribution> make_distribution(const YamlRef& ref, Dimension d);
std::shared_ptr<const Distribution> exponential_distribution(double mean);
// The sum of `n` independent exponential draws of mean `mean`: a loop for small n, a
// Gamma(n, mean) draw (Marsaglia & Tsang, 2000) beyond 32 terms.
double sum_of_exponentials(Rng& rng, int64_t n, double mean);
std::shared_ptr<const Distribution> weibull_distribution(double scale, double shape);

struct DistributionKind {
  std::string name;
  std::string description;
  ParamTable params;
};
// The kinds with their parameters, values in dimension `d` (the parameter's own).
std::vector<DistributionKind> distribution_kinds(Dimension d);

}  // namespace llsim
