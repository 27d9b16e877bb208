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
  explicit DeferredStats(ServerStats& stats) : stats_(stats) {}
  void queue_changed(double t, long delta) { push({t, order_++, Kind::Queue, delta, 0, 0}); }
  void busy_changed(double t, long delta) { push({t, order_++, Kind::Busy, delta, 0, 0}); }
  void add(double t, double bytes, double operations) { push({t, order_++, Kind::Add, 0, bytes, operations}); }
  // Applies every change due at or before `now`.
  void apply_until(double now);

 private:
  enum class Kind { Queue, Busy, Add };
  struct Change {
    double t;
    uint64_t order;
    Kind kind;
    long delta;
    double bytes, operations;
    bool operator>(const Change& o) const { return t > o.t || (t == o.t && order > o.order); }
  };
  void push(const Change& c) { due_.push(c); }

  ServerStats& stats_;
  uint64_t order_ = 0;
  std::priority_queue<Change, std::vector<Change>, std::greater<Change>> due_;
};

}  // namespace llsim
