// `llsim calibrate --storage POINTS --coefficient KEY --range LOW:HIGH [--grid N] [--jobs J]
// [--errors F] [--out F]`: fits one coefficient of a storage model (any scenario key, e.g.
// phases.checkpoint.process_bandwidth) to measured results of real systems (storage_points.hpp).
// Every scenario is run at each of N candidate values, log-spaced from LOW to HIGH (both with
// the same unit), J runs at a time, each a `llsim run` of its own; the fit is the candidate
// closest to the measured figures in least squares of log(simulated / measured)
// (storage_fit.hpp). It prints the fit on every row and, leaving one group (submitter) out at a
// time, each row's held-out error, and the key's fitted line to paste into a scenario. Nothing
// is fitted inside `llsim run`.
#pragma once
#include "sim/calibrate/calibrate_command.hpp"

namespace llsim {

int calibrate_storage(const CalibrateArguments& a);

}  // namespace llsim
