// Blocking network and compute activities and pauses for actor bodies. Each takes a deadline (an
// absolute simulated time; +inf for none): when the deadline comes first the activity is
// cancelled and the call returns false. Deadlines are how a host failure reaches the work in
// progress on it (sim/faults/host_faults.hpp).
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <functional>
#include <vector>

namespace llsim {

class Platform;

enum class IoOp { Read, Write };

// Moves `bytes` from one host to another over the network (nothing when both are the same host
// or bytes < 1). It lasts at least `min_duration` (a sender that cannot go faster).
bool transfer(const Platform& platform, HostId from, HostId to, double bytes, double deadline, double min_duration = 0);

// Moves several flows at once (they share the links they cross) and returns when all are done;
// false, with the rest cancelled, if the deadline comes first.
struct Flow {
  HostId from, to;
  double bytes;
};
bool transfer_all(const Platform& platform, const std::vector<Flow>& flows, double deadline);

// Cut-through relay: from -> via and via -> to at the same time, as a forwarding server sends
// on while it receives. `first_hop_done` runs once from -> via has ended and `min_first_hop`
// has passed (the sender is free for its next request); returns when both hops are done.
bool relay(const Platform& platform, HostId from, HostId via, HostId to, double bytes, double min_first_hop,
           double deadline, const std::function<void()>& first_hop_done);

// Sleeps for `duration` (a service time); false if the deadline comes first.
bool pause(double duration, double deadline);

// `flops` on the calling actor's host; on a deadline, `remaining` (if given) gets what was left.
bool compute(double flops, double deadline, double* remaining = nullptr);

}  // namespace llsim
