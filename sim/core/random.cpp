#include "sim/core/random.hpp"

#include "sim/core/stable_hash.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

static uint64_t splitmix64(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

uint64_t Rng::stream_key(uint64_t scenario_seed, std::string_view name)
{
  return splitmix64(scenario_seed ^ splitmix64(fnv1a(name)));
}

Rng Rng::stream(uint64_t scenario_seed, std::string_view name)
{
  return Rng(stream_key(scenario_seed, name));
}

Rng Rng::keyed(uint64_t key, uint64_t index)
{
  return Rng(splitmix64(key ^ splitmix64(index + 0x632be59bd9b4e019ULL)));
}

double Rng::uniform()
{
  return static_cast<double>(engine_() >> 11) * 0x1.0p-53;
}

double Rng::standard_normal()
{
  const double u1 = 1.0 - uniform();  // (0, 1]: log is finite
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

int64_t binomial(Rng& rng, int64_t n, double p)
{
  if (n <= 0 || !(p > 0))
    return 0;
  if (p >= 1)
    return n;
  if (p > 0.5)
    return n - binomial(rng, n, 1 - p);
  const double trials = static_cast<double>(n);
  const double mean   = trials * p;
  if (mean < 30) {
    // Walk P(k) up from P(0) = (1 - p)^n (at least e^-42 here) until the uniform draw is spent.
    double u       = rng.uniform();
    double pk      = std::pow(1 - p, trials);
    const double q = p / (1 - p);
    int64_t k      = 0;
    while (u >= pk && pk > 0 && k < n) {
      u -= pk;
      pk *= q * static_cast<double>(n - k) / static_cast<double>(k + 1);
      ++k;
    }
    return k;
  }
  const double x = std::round(mean + std::sqrt(mean * (1 - p)) * rng.standard_normal());
  return static_cast<int64_t>(std::clamp(x, 0.0, trials));
}

}  // namespace llsim
