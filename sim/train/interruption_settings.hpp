// The train phase's keys for what happens around an interruption: `restart: {delay,
// give_up_after, spares, swap_time}` after a failure, and `maintenance: {every, duration}`, the
// planned stops (sim/train/training_run.hpp says what each does).
#pragma once
#include "sim/core/params.hpp"
#include "sim/train/training_run.hpp"

namespace llsim {

const ParamTable& restart_params();
const ParamTable& maintenance_params();
// Reads both sections of a train phase into `setup`.
void read_interruption_settings(const Params& phase, TrainingSetup& setup);

}  // namespace llsim
