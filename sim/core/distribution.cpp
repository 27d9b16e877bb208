#include "sim/core/distribution.hpp"

#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"

#include <cmath>
#include <limits>

namespace llsim {

namespace {

class Constant : public Distribution {
 public:
  explicit Constant(double v)
      : v_(v)
  {}
  double sample(Rng&) const override { return v_; }
  double mean() const override { return v_; }
  double min_value() const override { return v_; }

 private:
  double v_;
};

class Exponential : public Distribution {
 public:
  explicit Exponential(double mean)
      : mean_(mean)
  {}
  double sample(Rng& rng) const override { return -mean_ * std::log(1.0 - rng.uniform()); }
  double mean() const override { return mean_; }
  double min_value() const override { return 0; }

 private:
  double mean_;
};

class Uniform : public Distribution {
 public:
  Uniform(double lo, double hi)
      : lo_(lo)
      , hi_(hi)
  {}
  double sample(Rng& rng) const override { return lo_ + (hi_ - lo_) * rng.uniform(); }
  double mean() const override { return (lo_ + hi_) / 2; }
  double min_value() const override { return lo_; }

 private:
  double lo_, hi_;
};

class Lognormal : public Distribution {
 public:
  Lognormal(double mean, double sigma)
      : mean_(mean)
      , sigma_(sigma)
      , mu_(std::log(mean) - sigma * sigma / 2)
  {}
  double sample(Rng& rng) const override { return std::exp(mu_ + sigma_ * rng.standard_normal()); }
  double mean() const override { return mean_; }
  double min_value() const override { return std::numeric_limits<double>::min(); }

 private:
  double mean_, sigma_, mu_;
};

class Weibull : public Distribution {
 public:
  Weibull(double scale, double shape)
      : scale_(scale)
      , shape_(shape)
  {}
  double sample(Rng& rng) const override { return scale_ * std::pow(-std::log(1.0 - rng.uniform()), 1.0 / shape_); }
  double mean() const override { return scale_ * std::tgamma(1.0 + 1.0 / shape_); }
  double min_value() const override { return 0; }

 private:
  double scale_, shape_;
};

class Empirical : public Distribution {
 public:
  explicit Empirical(std::vector<double> values)
      : values_(std::move(values))
  {}
  double sample(Rng& rng) const override
  {
    return values_[static_cast<size_t>(rng.uniform() * static_cast<double>(values_.size()))];
  }
  double mean() const override
  {
    double sum = 0;
    for (double v : values_)
      sum += v;
    return sum / static_cast<double>(values_.size());
  }
  double min_value() const override
  {
    double m = values_.front();
    for (double v : values_)
      m = std::min(m, v);
    return m;
  }

 private:
  std::vector<double> values_;
};

std::vector<double> read_empirical_values(const Params& p)
{
  const std::string file   = p.path("file");
  const std::string column = p.text("column");
  std::vector<double> values;
  try {
    const CsvTable table = read_csv_file(file);
    const size_t col     = table.column(column);
    for (size_t r = 0; r < table.rows.size(); ++r)
      values.push_back(table.number(r, col));
  } catch (const ConfigError& e) {
    p.fail("file", e.what());
  }
  if (values.empty())
    p.fail("file", "'" + file + "' has no values in column '" + column + "'");
  return values;
}

}  // namespace

std::vector<DistributionKind> distribution_kinds(Dimension d)
{
  const auto value = [d](const char* name, const char* description) {
    return ParamSpec::quantity(name, d, description);
  };
  return {
      {"constant",
       "always the same value",
       {ParamSpec::text("dist", "distribution name"), value("value", "the value")}},
      {"exponential",
       "memoryless; inter-arrival times, times between failures",
       {ParamSpec::text("dist", "distribution name"), value("mean", "mean value").positive()}},
      {"uniform",
       "uniform between min and max",
       {ParamSpec::text("dist", "distribution name"), value("min", "lower bound"), value("max", "upper bound")}},
      {"lognormal",
       "heavy-tailed sizes and compute costs",
       {ParamSpec::text("dist", "distribution name"), value("mean", "mean of the values").positive(),
        ParamSpec::quantity("sigma", Dimension::Number, "standard deviation of log(value)").at_least(0)}},
      {"weibull",
       "failure times; shape < 1 means infant mortality",
       {ParamSpec::text("dist", "distribution name"), value("scale", "scale (characteristic life)").positive(),
        ParamSpec::quantity("shape", Dimension::Number, "shape k").positive()}},
      {"empirical",
       "values drawn uniformly from a CSV column (SI base units, with header row)",
       {ParamSpec::text("dist", "distribution name"), ParamSpec::text("file", "CSV file, relative to the scenario"),
        ParamSpec::text("column", "column name in the header row")}},
  };
}

double sum_of_exponentials(Rng& rng, int64_t n, double mean)
{
  if (n <= 32) {
    double total = 0;
    for (int64_t i = 0; i < n; ++i)
      total += -mean * std::log(1.0 - rng.uniform());
    return total;
  }
  const double d = static_cast<double>(n) - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  while (true) {
    const double x = rng.standard_normal();
    const double v = std::pow(1.0 + c * x, 3);
    if (v <= 0)
      continue;
    const double u = rng.uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x || std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
      return d * v * mean;
  }
}

std::shared_ptr<const Distribution> exponential_distribution(double mean)
{
  return std::make_shared<Exponential>(mean);
}

std::shared_ptr<const Distribution> weibull_distribution(double scale, double shape)
{
  return std::make_shared<Weibull>(scale, shape);
}

std::shared_ptr<const Distribution> make_distribution(const YamlRef& ref, Dimension d)
{
  if (ref.node().IsScalar()) {
    try {
      return std::make_shared<Constant>(parse_quantity(ref.node().Scalar(), d));
    } catch (const std::invalid_argument& e) {
      ref.fail(e.what());
    }
  }
  if (!ref.node().IsMap() || !ref.node()["dist"])
    ref.fail(std::string("expected a ") + dimension_name(d) + " (e.g. " + dimension_example(d) +
             ") or a distribution such as {dist: exponential, mean: ...}");
  const std::string name = scalar_text(ref.child("dist"), "a distribution name");
  std::vector<std::string> names;
  for (const auto& k : distribution_kinds(d)) {
    names.push_back(k.name);
    if (k.name != name)
      continue;
    const Params p(ref, k.params);
    if (name == "constant")
      return std::make_shared<Constant>(p.quantity("value"));
    if (name == "exponential")
      return exponential_distribution(p.quantity("mean"));
    if (name == "uniform") {
      const double lo = p.quantity("min"), hi = p.quantity("max");
      if (hi < lo)
        p.fail("max", "max must not be below min");
      return std::make_shared<Uniform>(lo, hi);
    }
    if (name == "lognormal")
      return std::make_shared<Lognormal>(p.quantity("mean"), p.quantity("sigma"));
    if (name == "weibull")
      return weibull_distribution(p.quantity("scale"), p.quantity("shape"));
    return std::make_shared<Empirical>(read_empirical_values(p));
  }
  ref.child("dist").fail(unknown_word("distribution", name, names));
}

}  // namespace llsim
