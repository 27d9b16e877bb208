#include "sim/train/training_work.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/core/work_limits.hpp"

#include <cmath>

namespace llsim {

double read_training_iterations(const Params& p, const Distribution& iteration)
{
  if (p.has("work") == p.has("iterations"))
    p.ref().fail("give exactly one of 'work' (useful compute time) or 'iterations'");
  if (p.has("iterations")) {
    const auto n = static_cast<double>(p.integer("iterations"));
    refuse_excess_work(p, "iterations", n, kMostTrainIterations,
                       "iterations: " + std::to_string(p.integer("iterations")),
                       "fewer iterations, each a longer one, fit");
    return n;
  }
  const double work_s = p.quantity("work");
  const double n      = std::ceil(work_s / iteration.mean());
  refuse_excess_work(p, "work", n, kMostTrainIterations,
                     "work " + readable_duration(work_s) + " / iteration " + readable_duration(iteration.mean()),
                     "an iteration of at least " + readable_duration(rounded_up(work_s / kMostTrainIterations.most)) +
                         " fits this work");
  return n;
}

void refuse_excess_checkpoint_requests(const Params& io, double checkpoint_B, double request_B)
{
  refuse_excess_work(io, "request", std::ceil(checkpoint_B / request_B), kMostCheckpointRequests,
                     format_bytes(checkpoint_B) + " in requests of " + format_bytes(request_B),
                     "a request of at least " + format_bytes(rounded_up(checkpoint_B / kMostCheckpointRequests.most)) +
                         " fits");
}

void refuse_excess_checkpoints(const std::string& policy_at, double checkpoints, double left, double per_checkpoint)
{
  const double asked = checkpoints + left / per_checkpoint;
  if (asked > kMostTrainCheckpoints.most)
    throw SimulationError(policy_at + ": checkpoint.policy: " +
                          excess_work(asked, kMostTrainCheckpoints,
                                      "one every " + format_number(per_checkpoint) + " iterations",
                                      "a policy that checkpoints less often, or fewer iterations, fit"));
}

}  // namespace llsim
