// The q-quantile of a sample by nearest rank (the smallest value with at least q of the sample
// at or below it), as every phase's p50/p90/p99 metrics report it.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace llsim {

// Partly reorders `values`; 0 for an empty sample.
inline double percentile(std::vector<double>& values, double q)
{
  if (values.empty())
    return 0;
  const size_t rank = std::max<size_t>(static_cast<size_t>(std::ceil(q * static_cast<double>(values.size()))), 1) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank), values.end());
  return values[rank];
}

}  // namespace llsim
