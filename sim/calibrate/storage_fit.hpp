// The fit of `llsim calibrate --storage` (calibrate_storage.hpp): one coefficient of a storage
// model, chosen on a grid of candidate values, against measured results of real systems. Each
// row was simulated at every candidate; the fit is the candidate whose simulated figures are
// closest to the measured ones in least squares of log(simulated / measured), so that being 2x
// too fast weighs as much as 2x too slow. Leaving one group out (a submitter's systems) fits on
// the other groups' rows and predicts the group's: its rows' held-out error.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace llsim {

// `count` values from `low` to `high`, evenly spaced in log (both ends included).
std::vector<double> log_grid(double low, double high, size_t count);

// simulated[c][r]: row r's simulated figure with candidate c. A figure that is not positive or
// not finite (the run gave none) makes its candidate unusable for a fit that includes its row.
struct StorageFitInput {
  std::vector<std::vector<double>> simulated;
  std::vector<double> measured;
  std::vector<std::string> groups;  // of each row
};

// The candidate that fits the rows `use` marks best; candidates.size() when none is usable or no
// row is marked.
size_t best_candidate(const StorageFitInput& in, const std::vector<bool>& use);

struct StorageFit {
  size_t all_rows = 0;                   // the candidate fitted on every row
  std::vector<size_t> held_out;          // per row: the candidate fitted without the row's group
  std::vector<std::string> group_names;  // in order of first appearance
  std::vector<size_t> per_group;         // the candidate fitted without each group
};

// Both fits; a group left out whose complement has no usable candidate (or no row: a single
// group) gets candidates.size().
StorageFit fit_storage(const StorageFitInput& in);

}  // namespace llsim
