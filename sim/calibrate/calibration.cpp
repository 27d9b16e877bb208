#include "sim/calibrate/calibration.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/random.hpp"
#include "sim/core/text.hpp"

#include <unsupported/Eigen/NonLinearOptimization>
#include <unsupported/Eigen/NumericalDiff>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace llsim {

namespace {

struct Residuals {
  using Scalar       = double;
  using InputType    = Eigen::VectorXd;
  using ValueType    = Eigen::VectorXd;
  using JacobianType = Eigen::MatrixXd;
  enum { InputsAtCompileTime = Eigen::Dynamic, ValuesAtCompileTime = Eigen::Dynamic };

  const Calibration* calibration;
  const std::vector<Measurement>* points;
  std::vector<const CoefficientSpec*> specs;
  OperatorCoefficients base;

  int inputs() const { return static_cast<int>(specs.size()); }
  int values() const { return static_cast<int>(points->size()); }

  OperatorCoefficients at(const Eigen::VectorXd& x) const
  {
    OperatorCoefficients c = base;
    for (size_t i = 0; i < specs.size(); ++i)
      c.*(specs[i]->field) = from_free(*specs[i], x[static_cast<Eigen::Index>(i)]);
    return c;
  }
  int operator()(const Eigen::VectorXd& x, Eigen::VectorXd& r) const
  {
    const OperatorCoefficients c = at(x);
    for (size_t i = 0; i < points->size(); ++i) {
      const Measurement& m            = (*points)[i];
      r[static_cast<Eigen::Index>(i)] = calibration->error(m, c);
    }
    return 0;
  }
};

double sum_of_squares(const Residuals& f, const Eigen::VectorXd& x)
{
  Eigen::VectorXd r(f.values());
  f(x, r);
  return r.squaredNorm();
}

}  // namespace

// A coefficient no measurement depends on would come out as whatever the solver left it at.
void Calibration::check_determined(const std::vector<Measurement>& points,
                                   const std::vector<const CoefficientSpec*>& specs,
                                   const OperatorCoefficients& start) const
{
  for (const CoefficientSpec* s : specs) {
    OperatorCoefficients moved = start;
    moved.*(s->field)          = s->share ? start.*(s->field) / 2 : start.*(s->field) * 2 + (s->duration ? 1e-6 : 1);
    const bool matters         = std::any_of(points.begin(), points.end(),
                                             [&](const Measurement& m) { return predict(m, moved) != predict(m, start); });
    if (!matters)
      throw ConfigError(std::string("no measurement depends on ") + s->key + ": leave it out of --fit");
  }
}

namespace {
double unit(const CoefficientSpec& s)
{
  return s.duration ? 1e-6 : 1;
}
}  // namespace

double to_free(const CoefficientSpec& s, double v)
{
  return s.share ? std::log(v / (1 - std::min(v, 1 - 1e-12))) : v / unit(s);
}

double from_free(const CoefficientSpec& s, double x)
{
  return s.share ? 1 / (1 + std::exp(-x)) : std::abs(x) * unit(s);
}

const std::vector<CoefficientSpec>& fittable_coefficients()
{
  static const std::vector<CoefficientSpec> specs = [] {
    std::vector<CoefficientSpec> all;  // the GPU kernel coefficients first (kernel_coefficients.hpp)
    for (const KernelCoefficientSpec& s : kernel_coefficient_specs())
      all.push_back({s.key, kernel_member(s.which), s.share, s.dimension == Dimension::Duration});
    const std::vector<CoefficientSpec> others = {
        {"attention_efficiency", &OperatorCoefficients::attention_efficiency, true, false},
        {"attention_overhead", &OperatorCoefficients::attention_overhead_s, false, true},
        {"link_latency", &OperatorCoefficients::link_latency_s, false, true},
        {"link_efficiency", &OperatorCoefficients::link_efficiency, true, false},
        {"cpu_per_iteration", &OperatorCoefficients::cpu_per_iteration_s, false, true},
        {"cpu_per_sequence", &OperatorCoefficients::cpu_per_sequence_s, false, true},
    };
    all.insert(all.end(), others.begin(), others.end());
    return all;
  }();
  return specs;
}

const CoefficientSpec& coefficient(const std::string& key)
{
  std::vector<std::string> names;
  for (const CoefficientSpec& s : fittable_coefficients()) {
    if (key == s.key)
      return s;
    names.push_back(s.key);
  }
  throw ConfigError(unknown_word("coefficient", key, names));
}

double Calibration::predict(const Measurement& m, const OperatorCoefficients& c) const
{
  const OperatorDevice device = operator_device(gpu_, model_, m.tp, false);
  if (m.all_reduce_B > 0)
    return all_reduce_seconds(m.all_reduce_B, device, c);
  const OpTimes t = operator_times(model_, m.work, device, c);
  return (m.op ? t[static_cast<size_t>(*m.op)] : total(t)) / m.calls;
}

FitResult Calibration::fit(const std::vector<Measurement>& points, const std::vector<std::string>& keys,
                           const OperatorCoefficients& start) const
{
  if (points.size() < keys.size())
    throw ConfigError("fitting " + std::to_string(keys.size()) +
                      " coefficients needs at least as many "
                      "measurements; there are " +
                      std::to_string(points.size()));
  Residuals f{this, &points, {}, start};
  for (const std::string& k : keys)
    f.specs.push_back(&coefficient(k));
  check_determined(points, f.specs, start);
  // A few starting points (the max() of a roofline has flat regions): the given values, then
  // each coefficient a decade lower and higher in turn. The best fit wins; ties keep the first.
  Eigen::VectorXd best(f.inputs());
  double best_ss = std::numeric_limits<double>::infinity();
  for (size_t variant = 0; !f.specs.empty() && variant <= 2 * f.specs.size(); ++variant) {
    Eigen::VectorXd x(f.inputs());
    for (size_t i = 0; i < f.specs.size(); ++i)
      x[static_cast<Eigen::Index>(i)] = to_free(*f.specs[i], start.*(f.specs[i]->field));
    if (variant > 0) {
      const size_t i   = (variant - 1) / 2;
      const bool lower = variant % 2 == 1;
      auto& xi         = x[static_cast<Eigen::Index>(i)];
      xi               = f.specs[i]->share ? xi + (lower ? -1 : 1) * std::log(10.0) : xi * (lower ? 0.1 : 10);
    }
    Eigen::NumericalDiff<Residuals> diff(f);
    Eigen::LevenbergMarquardt<Eigen::NumericalDiff<Residuals>> lm(diff);
    lm.parameters.maxfev = 4000;
    lm.minimize(x);
    const double ss = sum_of_squares(f, x);
    if (ss < best_ss)
      best_ss = ss, best = x;
  }
  FitResult r;
  r.coefficients = f.at(best);
  for (const Measurement& m : points) {
    r.predicted.push_back(predict(m, r.coefficients));
    const double e = std::abs(r.predicted.back() - m.seconds) / m.scale;
    r.mean_abs_error += e / static_cast<double>(points.size());
    r.max_abs_error = std::max(r.max_abs_error, e);
  }
  return r;
}

double Calibration::held_out_error(const std::vector<Measurement>& points, const std::vector<std::string>& keys,
                                   const OperatorCoefficients& start, int folds, uint64_t seed) const
{
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), 0);
  Rng rng = Rng::stream(seed, "calibrate.folds");
  for (size_t i = order.size(); i > 1; --i)  // Fisher-Yates with the project's generator
    std::swap(order[i - 1], order[static_cast<size_t>(rng.uniform() * static_cast<double>(i))]);
  double error = 0;
  for (int k = 0; k < folds; ++k) {
    std::vector<Measurement> train, test;
    for (size_t i = 0; i < order.size(); ++i)
      (static_cast<int>(i % static_cast<size_t>(folds)) == k ? test : train).push_back(points[order[i]]);
    const OperatorCoefficients c = fit(train, keys, start).coefficients;
    for (const Measurement& m : test)
      error += std::abs(this->error(m, c));
  }
  return error / static_cast<double>(points.size());
}

}  // namespace llsim
