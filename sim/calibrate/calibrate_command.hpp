// `llsim calibrate --model M --gpu G (--steps F | --profile F | --attention F | --cpu-overheads F |
// --all-reduce F) [--fit K,...]`, or `llsim calibrate --requests LOG --scenario S --phase P
// [--format F] [--max-runs N] [--fit K,...]` (sim/calibrate/calibrate_requests.hpp), then
// [--start C] [--folds K] [--seed N] [--errors F] [--out F]`: fits the operators iteration
// model's free coefficients for one GPU type to measured times (sim/calibrate/calibration.hpp,
// inputs in sim/calibrate/calibration_inputs.hpp) and prints the fit's error on the points, its
// k-fold held-out error and an `iteration:` block to paste into a scenario. Nothing is fitted
// inside `llsim run`. `llsim calibrate --storage POINTS --coefficient KEY --range LOW:HIGH` fits a
// storage model's coefficient to real systems' results instead (calibrate_storage.hpp).
#pragma once
#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace llsim {

struct CalibrateArguments {
  std::string model, gpu, steps, profile, attention, cpu_overheads, all_reduce, fit, start, errors, out;
  std::string requests, scenario, phase, format = "requests";
  std::string storage, coefficient, range;  // --storage (calibrate_storage.hpp)
  int grid      = 13;
  int jobs      = 2;
  int folds     = 5;
  int max_runs  = 100;
  uint64_t seed = 1;
};

CLI::App* add_calibrate_command(CLI::App& app, CalibrateArguments& a);
// Exit status; ConfigError for bad inputs.
int calibrate_command(const CalibrateArguments& a);

}  // namespace llsim
