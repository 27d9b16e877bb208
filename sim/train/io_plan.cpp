#include "sim/train/io_plan.hpp"

#include <algorithm>

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
      sum += p.creates;
  return sum;
}

size_t IoSystem::home_forwarding(int64_t node, size_t writer_index) const
{
  if (balanced_mapping)
    return writer_index % forwarding;
  return std::min(static_cast<size_t>(node / ratio), forwarding - 1);
}

}  // namespace llsim
