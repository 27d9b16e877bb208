// How much a train phase trains: `work` (useful compute time, divided by the mean iteration) or
// `iterations`, one of the two, within the iterations and checkpoints llsim simulates in one
// phase (sim/core/work_limits.hpp).
#pragma once
#include "sim/core/distribution.hpp"
#include "sim/core/params.hpp"

namespace llsim {

// The useful iterations the phase `p` asks for.
double read_training_iterations(const Params& p, const Distribution& iteration);

// Refuses an `io.request` size that cuts one checkpoint of `checkpoint_B` into more requests
// than llsim simulates.
void refuse_excess_checkpoint_requests(const Params& io, double checkpoint_B, double request_B);

// Throws a SimulationError located at `policy_at` when the `checkpoints` taken so far and one
// every `per_checkpoint` of the `left` iterations are more than llsim simulates in one phase.
void refuse_excess_checkpoints(const std::string& policy_at, double checkpoints, double left, double per_checkpoint);

}  // namespace llsim
