// The most work of each kind one run may ask for. llsim simulates every iteration, checkpoint,
// weight piece and host outage one by one, each holding a little memory until the run ends; past
// these counts a run takes hours and tens of GiB instead of failing (a train phase of 1 ns
// iterations over a day of work grew to 14 GB in a minute). A scenario asking for more is
// refused, at load time where the count is known then, naming the keys and what would fit.
// docs/scenario.md "Limits" lists the limits.
#pragma once
#include "sim/core/params.hpp"

#include <string>

namespace llsim {

struct WorkLimit {
  const char* units;  // "iterations of a train phase"
  double most;
};

inline constexpr WorkLimit kMostTrainIterations{"iterations of a train phase", 1e7};
inline constexpr WorkLimit kMostTrainCheckpoints{"checkpoints of a train phase", 1e6};
// 3x the most a shipped scenario asks (sunway_10t: 32,600); each takes about 50 us to simulate.
inline constexpr WorkLimit kMostCheckpointRequests{"requests of one checkpoint", 1e5};
inline constexpr WorkLimit kMostWeightPieces{"pieces of one weight load", 1e5};
inline constexpr WorkLimit kMostHostOutages{"host outages in a run", 1e6};

// `x` rounded up to three significant digits, as an error writes "what would fit": a figure that
// written with three digits still fits.
double rounded_up(double x);

// "asks for N <units> (<why>); llsim simulates each and refuses more than M: <fits>"
std::string excess_work(double asked, const WorkLimit& limit, const std::string& why, const std::string& fits);

// Fails at `key` of `p` with excess_work's message when `asked` is over the limit.
void refuse_excess_work(const Params& p, const std::string& key, double asked, const WorkLimit& limit,
                        const std::string& why, const std::string& fits);

}  // namespace llsim
