#include "sim/calibrate/storage_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace llsim {

std::vector<double> log_grid(double low, double high, size_t count)
{
  std::vector<double> grid;
  for (size_t i = 0; i < count; ++i) {
    const double t = count == 1 ? 0 : static_cast<double>(i) / static_cast<double>(count - 1);
    grid.push_back(std::exp(std::log(low) + t * (std::log(high) - std::log(low))));
  }
  return grid;
}

size_t best_candidate(const StorageFitInput& in, const std::vector<bool>& use)
{
  size_t best      = in.simulated.size();
  double best_loss = std::numeric_limits<double>::infinity();
  if (std::find(use.begin(), use.end(), true) == use.end())
    return best;  // no row to fit: no candidate is better than another
  for (size_t c = 0; c < in.simulated.size(); ++c) {
    double loss = 0;
    for (size_t r = 0; r < in.measured.size() && std::isfinite(loss); ++r) {
      if (!use[r])
        continue;
      const double s = in.simulated[c][r];
      loss += s > 0 && std::isfinite(s) ? std::pow(std::log(s / in.measured[r]), 2)
                                        : std::numeric_limits<double>::infinity();
    }
    if (loss < best_loss) {  // the first of equal candidates: the lowest value
      best      = c;
      best_loss = loss;
    }
  }
  return best;
}

StorageFit fit_storage(const StorageFitInput& in)
{
  StorageFit fit;
  const size_t rows = in.measured.size();
  fit.all_rows      = best_candidate(in, std::vector<bool>(rows, true));
  fit.held_out.assign(rows, in.simulated.size());
  for (const std::string& g : in.groups)
    if (std::find(fit.group_names.begin(), fit.group_names.end(), g) == fit.group_names.end())
      fit.group_names.push_back(g);
  for (const std::string& g : fit.group_names) {
    std::vector<bool> others(rows);
    for (size_t r = 0; r < rows; ++r)
      others[r] = in.groups[r] != g;
    const size_t c = best_candidate(in, others);
    fit.per_group.push_back(c);
    for (size_t r = 0; r < rows; ++r)
      if (!others[r])
        fit.held_out[r] = c;
  }
  return fit;
}

}  // namespace llsim
