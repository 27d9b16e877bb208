// The scenario's random numbers. One seed per scenario; each consumer (a phase, the platform
// builder) draws from its own stream derived from the seed and a stable name, so adding a phase
// does not change the numbers another phase sees. Sampling is implemented here (not with
// std::*_distribution, whose output differs between standard libraries) so a seed gives the
// same numbers everywhere.
#pragma once
#include <cstdint>
#include <random>
#include <string_view>

namespace llsim {

class Rng {
 public:
  explicit Rng(uint64_t seed)
      : engine_(seed)
  {}
  // A stream for one named consumer of the scenario seed.
  static Rng stream(uint64_t scenario_seed, std::string_view name);
  // Many small streams under one name without building a name per stream: stream_key() once,
  // then keyed(key, i) is the i-th stream (e.g. one per host, or one per outage of a host).
  static uint64_t stream_key(uint64_t scenario_seed, std::string_view name);
  static Rng keyed(uint64_t key, uint64_t index);

  double uniform();          // [0, 1), 53 random bits
  double standard_normal();  // Box-Muller
  uint64_t bits() { return engine_(); }

 private:
  std::mt19937_64 engine_;
};

// A draw of Binomial(n, p): successes in n independent trials of probability p. Exact (inversion)
// when the rarer outcome's mean is under 30; else its normal approximation, rounded into [0, n],
// whose error is then well inside the draw's own spread.
int64_t binomial(Rng& rng, int64_t n, double p);

}  // namespace llsim
