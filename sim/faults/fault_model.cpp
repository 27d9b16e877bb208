#include "sim/faults/fault_model.hpp"

#include <cmath>

namespace llsim {

double FaultModel::set_rate(size_t first, size_t count) const
{
  double rate = 0;
  for (size_t i = first; i < first + count; ++i) {
    const double mtbf = mtbf_s(i);
    if (std::isfinite(mtbf))
      rate += 1 / mtbf;
  }
  return rate;
}

}  // namespace llsim
