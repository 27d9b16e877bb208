#include "sim/train/young_daly.hpp"

#include <cmath>

namespace llsim {

double young_interval(double cost_s, double mtbf_s)
{
  return std::sqrt(2 * cost_s * mtbf_s);
}

double daly_interval(double cost_s, double mtbf_s)
{
  if (cost_s >= 2 * mtbf_s)
    return mtbf_s;
  const double ratio = cost_s / (2 * mtbf_s);
  return std::sqrt(2 * cost_s * mtbf_s) * (1 + std::sqrt(ratio) / 3 + ratio / 9) - cost_s;
}

}  // namespace llsim
