#include "sim/svc/deferred_stats.hpp"

namespace llsim {

void DeferredStats::apply_until(double now)
{
  while (!due_.empty() && due_.top().t <= now) {
    const Change c = due_.top();
    due_.pop();
    if (c.queue_delta != 0)
      stats_.queue_changed(c.t, c.queue_delta);
    if (c.busy_delta != 0)
      stats_.busy_changed(c.t, c.busy_delta);
    if (c.bytes > 0 || c.operations > 0)
      stats_.add(c.t, c.bytes, c.operations);
  }
}

}  // namespace llsim
