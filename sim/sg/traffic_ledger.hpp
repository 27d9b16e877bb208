// Bytes each phase moved between host groups, for a network price per GB between named groups
// (docs/accounting.md, "Network"). The network activities (sim/sg/activities.hpp) count what they
// delivered, to the phase of the calling actor (sim/sg/wait_ledger.hpp): a service thread serving
// a phase's request counts its replies to that phase. A cancelled transfer counts what it had
// moved. Actors working for no phase are not counted (every service request carries its phase:
// over the test inputs and scenarios, none sends for no phase).
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <map>
#include <string>
#include <utility>

namespace llsim {

class Platform;

using GroupPair = std::pair<std::string, std::string>;  // (from group, to group)

void count_traffic(const Platform& platform, HostId from, HostId to, double bytes);
// Bytes that crossed from one group to the other without a network activity: a train phase's
// charged checkpoint I/O (io_replay), which stands for an operation measured earlier.
void count_group_traffic(const GroupSpec& from, const GroupSpec& to, double bytes);
std::map<GroupPair, double> phase_traffic(int tag);  // bytes
// Before a simulation: forgets what was counted; counts from now on only with `counting` (a run
// with no network price spares the network activities this work).
void start_traffic_ledger(bool counting);

}  // namespace llsim
