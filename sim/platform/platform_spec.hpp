// The platform as written in the scenario, checked and in SI units, before any SimGrid object
// exists (so phases can validate group names at load time).
//
//   platform:
//     groups:
//       <name>: {count, speed, cores, memory, nic: {bandwidth, latency}, disks: {count, read, write, capacity}}
//     backbone: {bandwidth, latency}        # joins all groups: a star
//     topology:                             # or, instead of a backbone, explicit switches and links
//       switches: [core0, core1]
//       links:
//         - {name: up0, between: [compute, core0], bandwidth: 400GBps, latency: 1us}
#pragma once
#include "sim/core/distribution.hpp"
#include "sim/core/params.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llsim {

struct DiskSpec {
  int64_t count    = 1;
  double read_Bps  = 0;
  double write_Bps = 0;
  double capacity_B = 0;  // per disk
};

struct GroupSpec {
  std::string name;
  int64_t count = 1;
  std::shared_ptr<const Distribution> speed;  // flop/s per host, drawn once per host
  int64_t cores   = 1;
  double memory_B = 0;
  double nic_Bps  = 0;
  double nic_latency_s = 0;
  std::optional<DiskSpec> disks;
};

struct LinkSpec {
  std::string name;
  std::string end_a, end_b;  // group or switch names
  double bandwidth_Bps = 0;
  double latency_s     = 0;
};

struct TopologySpec {
  std::vector<std::string> switches;
  std::vector<LinkSpec> links;
};

struct PlatformSpec {
  std::vector<GroupSpec> groups;
  double backbone_Bps       = 0;
  double backbone_latency_s = 0;
  std::optional<TopologySpec> topology;

  const GroupSpec* find(const std::string& name) const;
  std::vector<std::string> group_names() const;
  // The group named by the text parameter `key` of `p`; a located error listing the groups otherwise.
  const GroupSpec& group_param(const Params& p, const std::string& key) const;
};

PlatformSpec parse_platform(const Params& platform);
const ParamTable& platform_params();
const ParamTable& group_params();

}  // namespace llsim
