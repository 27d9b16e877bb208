// Text that `llsim calibrate` writes, whichever measurements it fits: coefficients with their
// units, percentages, the iteration: line to paste into a scenario, and the files it writes.
#pragma once
#include "sim/calibrate/calibration.hpp"

#include <string>
#include <vector>

namespace llsim {

// A coefficient as a scenario writes it, to 4 significant digits ("0.7619", "5.572us").
std::string coefficient_text(const CoefficientSpec& s, double v);
std::string percent(double share);  // "12.3%"
// "iteration: {impl: operators, k: v, ...}" with the coefficients fitted and those --start gave.
std::string iteration_line(const std::vector<std::string>& keys, const std::string& start_text,
                           const OperatorCoefficients& c);
// A file the command will write: refused before any work when it cannot be.
void check_writable(const char* option, const std::string& file);
// Writes the iteration block to --out's file (nothing when it is empty).
void write_block(const std::string& file, const std::string& block);

}  // namespace llsim
