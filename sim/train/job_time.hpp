// Where a training job's time went, for what limited it (docs/accounting.md, "What limited each
// phase"): useful compute, work that failures lost, restart delays and waits for hosts, planned
// maintenance, and the time the job stood waiting for I/O (blocking checkpoints, reading
// checkpoints back, data stalls and warm-ups), divided over the resources its I/O was charged at
// in proportion to those charges. The ledger counts I/O in request-seconds, many requests at
// once; a checkpoint charged instead of run (io_replay) is charged there what the measured one
// was (SimTrainingEnvironment), so the proportions count every checkpoint, as the energy
// accounting does. The parts add up to the makespan.
#pragma once
#include "sim/train/training_run.hpp"

#include <map>
#include <string>

namespace llsim {

// `io_charged`: the seconds the phase's I/O was charged at each resource.
std::map<std::string, double> job_time(const TrainingResult& r, const std::map<std::string, double>& io_charged);

}  // namespace llsim
