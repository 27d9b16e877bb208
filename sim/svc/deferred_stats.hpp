// Statistics changes known ahead of their time (a request's start and end computed when it is
// submitted), handed to a ServerStats in time order: each is kept until the clock reaches it.
// ServerStats integrates queue lengths and busy units forward in time only.
#pragma once
#include "sim/svc/server_stats.hpp"

#include <cstdint>
#include <queue>
#include <vector>

namespace llsim {

class DeferredStats {
 public:
  explicit DeferredStats(ServerStats& stats)
      : stats_(stats)
  {}
  // At `t`: the queue and the busy units change by these deltas, and bytes and operations are
  // done.
  void change(double t, int queue_delta, int busy_delta, double bytes = 0, double operations = 0)
  {
    due_.push({t, order_++, queue_delta, busy_delta, bytes, operations});
  }
  // Applies every change due at or before `now`.
  void apply_until(double now);

 private:
  struct Change {
    double t;
    uint64_t order;
    int queue_delta, busy_delta;
    double bytes, operations;
    bool operator>(const Change& o) const { return t > o.t || (t == o.t && order > o.order); }
  };

  ServerStats& stats_;
  uint64_t order_ = 0;
  std::priority_queue<Change, std::vector<Change>, std::greater<Change>> due_;
};

}  // namespace llsim
