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
// Only the simulation finds out how many of these a run asks for (counted by WorkCounter).
inline constexpr WorkLimit kMostTrackingRows{"tracking rows of a phase", 1e6};
inline constexpr WorkLimit kMostScalingDecisions{"decisions of an autoscaler", 1e6};
// A task of an hour's compute checkpointing every 36 ms.
inline constexpr WorkLimit kMostTaskCheckpoints{"checkpoints of one task", 1e5};

// `x` rounded up to three significant digits, as an error writes "what would fit": a figure that
// written with three digits still fits.
double rounded_up(double x);

// "asks for N <units> (<why>); llsim simulates each and refuses more than M: <fits>"
std::string excess_work(double asked, const WorkLimit& limit, const std::string& why, const std::string& fits);

// Fails at `key` of `p` with excess_work's message when `asked` is over the limit.
void refuse_excess_work(const Params& p, const std::string& key, double asked, const WorkLimit& limit,
                        const std::string& why, const std::string& fits);

// For work only the simulation finds out the amount of: when `asked` is over the limit, throws
// SimulationError at `at` (Params::located) with excess_work's message.
void stop_excess_work(const std::string& at, double asked, const WorkLimit& limit, const std::string& why,
                      const std::string& fits);

// Work counted as it is done (a period's rows or decisions over a phase of unknown length): past
// the limit, a SimulationError at `at` saying the count stopped there, the phase still going, and
// what fits.
class WorkCounter {
 public:
  // `at`: Params::located(key).
  WorkCounter(const WorkLimit& limit, std::string at, std::string fits);
  // Counts `n` more, done by simulated time `now_s`.
  void add(double n, double now_s);

 private:
  const WorkLimit* limit_;
  std::string at_, fits_;
  double done_ = 0;
};

}  // namespace llsim
