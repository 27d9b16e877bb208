#include "sim/train/io_plan.hpp"

namespace llsim {

double IoPlan::total_B() const
{
  double sum = 0;
  for (const auto& w : writers)
    sum += w.bytes;
  return sum;
}

int64_t IoPlan::files() const
{
  int64_t sum = 0;
  for (const auto& w : writers)
    for (const auto& p : w.pieces)
      sum += p.files;
  return sum;
}

}  // namespace llsim
