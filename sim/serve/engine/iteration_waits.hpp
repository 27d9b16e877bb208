// The request-seconds one iteration of a serving instance made its sequences wait, charged to
// what bounded it (the wait ledger, sim/sg/wait_ledger.hpp, for the phase's "what limited"
// verdict): every sequence of the batch waits the whole iteration, split between the GPUs' HBM
// bandwidth and their compute in the share the iteration model gives, or to the GPU as a whole
// when the model gives none (a custom iteration, or no model). Called from the instance's actor.
#pragma once
#include "sim/serve/cost/iteration_model.hpp"

namespace llsim {

void charge_iteration_waits(const IterationModel* model, const BatchWork& work, double seconds);

}  // namespace llsim
