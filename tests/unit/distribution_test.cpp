#include "sim/core/distribution.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/random.hpp"
#include "temp_file.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <utility>

using namespace llsim;

namespace {

std::shared_ptr<const Distribution> make(const std::string& text, Dimension d, const std::string& file = "d.yaml")
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = file;
  return make_distribution(YamlRef(YAML::Load(text), "x", source), d);
}

double sample_mean(const Distribution& dist, uint64_t seed, int n)
{
  Rng rng(seed);
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += dist.sample(rng);
  return sum / n;
}

}  // namespace

TEST_CASE("random: streams are reproducible and independent", "[random]")
{
  Rng a = Rng::stream(7, "phase.stage"), b = Rng::stream(7, "phase.stage"), c = Rng::stream(7, "phase.other");
  const double va = a.uniform();
  CHECK(va == b.uniform());
  CHECK(va != c.uniform());
  CHECK(Rng::stream(8, "phase.stage").uniform() != va);
  for (int i = 0; i < 1000; ++i) {
    const double u = a.uniform();
    REQUIRE(u >= 0);
    REQUIRE(u < 1);
  }
}

TEST_CASE("random: binomial draws have its mean and variance, exactly bounded", "[random]")
{
  // Inversion (small means, p above one half by symmetry) and the normal approximation.
  for (const auto& [n, p] :
       {std::pair<int64_t, double>{20, 0.3}, {1000, 0.01}, {1000, 0.995}, {10000, 0.645}, {int64_t{50000000}, 0.07}}) {
    Rng rng(5);
    double sum = 0, sq = 0;
    constexpr int kDraws = 20000;
    for (int i = 0; i < kDraws; ++i) {
      const int64_t k = binomial(rng, n, p);
      REQUIRE(k >= 0);
      REQUIRE(k <= n);
      sum += static_cast<double>(k);
      sq += static_cast<double>(k) * static_cast<double>(k);
    }
    const double mean = sum / kDraws, var = sq / kDraws - mean * mean, N = static_cast<double>(n);
    INFO("n " << n << ", p " << p);
    CHECK(mean == Approx(N * p).epsilon(0.01));
    CHECK(var == Approx(N * p * (1 - p)).epsilon(0.05));
  }
  Rng rng(1);
  CHECK(binomial(rng, 0, 0.5) == 0);
  CHECK(binomial(rng, 100, 0) == 0);
  CHECK(binomial(rng, 100, 1) == 100);
  Rng a(9), b(9);
  CHECK(binomial(a, 10000, 0.3) == binomial(b, 10000, 0.3));
}

TEST_CASE("distributions: plain value is a constant in the parameter's unit", "[random]")
{
  const auto d = make("2ms", Dimension::Duration);
  Rng rng(1);
  CHECK(d->sample(rng) == Approx(0.002));
  CHECK(d->mean() == Approx(0.002));
}

TEST_CASE("distributions: sample means match their definitions", "[random]")
{
  constexpr int n        = 200000;
  const auto exponential = make("{dist: exponential, mean: 2s}", Dimension::Duration);
  CHECK(sample_mean(*exponential, 1, n) == Approx(2).epsilon(0.01));
  const auto uniform = make("{dist: uniform, min: 1GB, max: 3GB}", Dimension::Size);
  CHECK(sample_mean(*uniform, 2, n) == Approx(2e9).epsilon(0.01));
  const auto lognormal = make("{dist: lognormal, mean: 2TFlops, sigma: 0.5}", Dimension::Compute);
  CHECK(sample_mean(*lognormal, 3, n) == Approx(2e12).epsilon(0.01));
  const auto weibull = make("{dist: weibull, scale: 6h, shape: 0.7}", Dimension::Duration);
  CHECK(weibull->mean() == Approx(6 * 3600 * std::tgamma(1 + 1 / 0.7)));
  CHECK(sample_mean(*weibull, 4, n) == Approx(weibull->mean()).epsilon(0.02));
  const auto constant = make("{dist: constant, value: 5/s}", Dimension::Rate);
  CHECK(sample_mean(*constant, 5, 10) == 5);
}

TEST_CASE("distributions: empirical draws the values of a CSV column", "[random]")
{
  const std::string csv = test::write_temp_file("speeds.csv", "host,speed\na,1e9\nb,3e9\n");
  const auto d          = make("{dist: empirical, file: speeds.csv, column: speed}", Dimension::Compute, csv);
  CHECK(d->mean() == 2e9);
  Rng rng(9);
  for (int i = 0; i < 100; ++i) {
    const double v = d->sample(rng);
    REQUIRE((v == 1e9 || v == 3e9));
  }
  const std::string bad = test::write_temp_file("bad.csv", "speed\n1e9\nfast\n");
  CHECK_THROWS_WITH(make("{dist: empirical, file: bad.csv, column: speed}", Dimension::Compute, bad),
                    Catch::Contains("bad.csv:3: column 'speed': 'fast' is not a number"));
}

TEST_CASE("distributions: errors", "[random]")
{
  CHECK_THROWS_WITH(make("{dist: expnential, mean: 2s}", Dimension::Duration),
                    Catch::Contains("did you mean 'exponential'"));
  CHECK_THROWS_WITH(make("{dist: uniform, min: 3GB, max: 1GB}", Dimension::Size),
                    Catch::Contains("max must not be below min"));
  CHECK_THROWS_WITH(make("{dist: exponential, mean: 2GB}", Dimension::Duration), Catch::Contains("unknown unit 'GB'"));
  CHECK_THROWS_WITH(make("{dist: exponential}", Dimension::Duration), Catch::Contains("missing required key 'mean'"));
  CHECK_THROWS_WITH(make("{mean: 2s}", Dimension::Duration), Catch::Contains("distribution such as"));
}
