#include "sim/train/spare_pool.hpp"

#include <algorithm>
#include <functional>

namespace llsim {

SparePool::SparePool(int64_t spares, double swap_s)
    : unlimited_(spares < 0)
    , free_(std::max<int64_t>(spares, 0))
    , swap_s_(swap_s)
{}

double SparePool::replace(double now, double repaired_s)
{
  while (!repairing_.empty() && repairing_.top() <= now) {
    repairing_.pop();
    free_ += 1;
  }
  double filled = repaired_s;  // by default the failed host itself comes back
  if (repaired_s <= now + swap_s_) {
    // Back before a spare could be swapped in (a software fault, a reboot): no spare is taken.
  } else if (unlimited_ || free_ > 0) {
    filled = now + swap_s_;
    if (!unlimited_) {
      free_ -= 1;
      repairing_.push(repaired_s);
    }
    swaps_ += 1;
  } else if (!repairing_.empty() && repairing_.top() + swap_s_ < repaired_s) {
    filled = repairing_.top() + swap_s_;  // a spare back from repair comes first
    repairing_.pop();
    repairing_.push(repaired_s);
    swaps_ += 1;
  }
  // Places emptied by earlier failures may still be waiting for their host.
  ready_s_ = std::max({ready_s_, filled, now});
  return ready_s_;
}

double SparePool::replace_all(double now, std::vector<double> repaired_s)
{
  std::sort(repaired_s.begin(), repaired_s.end(), std::greater<>());
  double ready = std::max(ready_s_, now);
  for (double up : repaired_s)
    ready = replace(now, up);
  return ready;
}

}  // namespace llsim
