// Explicit topologies: groups and switches are vertices, links are edges of a Boost.Graph graph.
// Traffic between two groups follows the lowest-latency path (fewest links breaks ties).
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <string>
#include <vector>

namespace llsim {

struct RouteHop {
  size_t link;   // index into TopologySpec::links
  bool forward;  // traversed from end_a to end_b
};

// Route from group `from` to group `to` (both must exist in the topology).
std::vector<RouteHop> route_between(const PlatformSpec& spec, const std::string& from, const std::string& to);

// ConfigError at `where` naming a group that cannot reach the others.
void check_connected(const PlatformSpec& spec, const YamlRef& where);

}  // namespace llsim
