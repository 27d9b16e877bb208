#include "sim/svc/deferred_stats.hpp"

namespace llsim {

void DeferredStats::apply_until(double now)
{
  while (!due_.empty() && due_.top().t <= now) {
    const Change c = due_.top();
    due_.pop();
    switch (c.kind) {
      case Kind::Queue: stats_.queue_changed(c.t, c.delta); break;
      case Kind::Busy: stats_.busy_changed(c.t, c.delta); break;
      case Kind::Add: stats_.add(c.t, c.bytes, c.operations); break;
    }
  }
}

}  // namespace llsim
