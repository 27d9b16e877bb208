#include "sim/platform/message_time.hpp"

#include "sim/platform/topology.hpp"

#include <algorithm>

namespace llsim {

double message_time(const PlatformSpec& platform, HostId from, HostId to, double bytes)
{
  if (from == to)
    return 0;
  const GroupSpec& a = platform.group_of(from);
  const GroupSpec& b = platform.group_of(to);
  double latency     = a.nic_latency_s + b.nic_latency_s;
  double bandwidth   = std::min(a.nic_Bps, b.nic_Bps);
  if (&a != &b) {
    if (!platform.topology) {
      latency += platform.backbone_latency_s;
      bandwidth = std::min(bandwidth, platform.backbone_Bps);
    } else {
      for (const RouteHop& hop : route_between(platform, a.name, b.name)) {
        const LinkSpec& link = platform.topology->links[hop.link];
        latency += link.latency_s;
        bandwidth = std::min(bandwidth, link.bandwidth_Bps);
      }
    }
  }
  if (platform.network == NetworkModel::Lv08) {
    latency *= 13.01;
    bandwidth *= 0.97;
  }
  return latency + bytes / bandwidth;
}

}  // namespace llsim
