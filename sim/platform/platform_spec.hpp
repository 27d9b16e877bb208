// The platform as written in the scenario, checked and in SI units, before any SimGrid object
// exists (so phases can validate group names at load time).
//
//   platform:
//     groups:
//       <name>: {count, speed, cores, memory, memory_bandwidth, nic: {bandwidth, latency},
//                disks: {count, read, write, capacity, latency, parallelism,
//                       read_iops, write_iops} or {preset, count, ...} (disk_spec.hpp), gpu: {flops, hbm_bandwidth, hbm, count},
//                cost: {per_hour | per_gpu_hour}, power: {idle, busy}}       (group_prices.hpp)
//                                                        or gpu: {preset: h100-sxm, count: 8} (gpu_spec.hpp)
//     backbone: {bandwidth, latency}        # joins all groups: a star
//     topology:                             # or, instead of a backbone, explicit switches and links
//       switches: [core0, core1]
//       links:
//         - {name: up0, between: [compute, core0], bandwidth: 400GBps, latency: 1us}
//     network: {model: cm02}                # SimGrid's network model: cm02 (default) or lv08
//
// Hosts are numbered across the whole platform, group after group in the order of the file:
// a HostId names one host without any SimGrid type (sim/sg maps it to the SimGrid host).
#pragma once
#include "sim/core/distribution.hpp"
#include "sim/core/params.hpp"
#include "sim/platform/disk_spec.hpp"
#include "sim/platform/gpu_spec.hpp"
#include "sim/platform/group_prices.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llsim {

using HostId = uint32_t;

struct GroupSpec {
  std::string name;
  int64_t count = 1;
  std::shared_ptr<const Distribution> speed;  // flop/s per host, drawn once per host
  int64_t cores        = 1;
  double memory_B      = 0;
  double nic_Bps       = 0;
  double nic_latency_s = 0;
  std::optional<DiskSpec> disks;
  std::optional<GpuSpec> gpu;
  double memory_Bps = 0;  // CPU memory bandwidth of a host (0: not given)
  GroupCost cost;         // no price: 0
  GroupPower power;       // not given: 0 W
  HostId first_host = 0;  // id of host 0 of the group; host i is first_host + i

  HostId host(int64_t index) const { return first_host + static_cast<HostId>(index); }
  bool contains(HostId h) const { return h >= first_host && h < first_host + static_cast<HostId>(count); }
};

// How SimGrid shares and delays network flows (platform.network.model).
//   cm02  max-min fair sharing of every link a flow crosses, latency as given; a flow is also
//         bounded by TCP-gamma / (2 x route latency) (SimGrid's 4 MiB window), which only binds
//         on high-latency routes (4 MiB over a 10 ms route: 210 MB/s). Bandwidth bounds of the
//         form bytes / narrowest link hold when that window bound is above every link crossed.
//   lv08  the same with the TCP corrections measured by Velho and Legrand (2009): 97% of the
//         nominal bandwidth and 13.01 times the latency (slow start, ACKs).
enum class NetworkModel { Cm02, Lv08 };

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
  NetworkModel network = NetworkModel::Cm02;

  const GroupSpec* find(const std::string& name) const;
  const GroupSpec& group_of(HostId h) const;
  HostId host_count() const;
  std::string host_name(HostId h) const;  // "<group>-<index>", as in traces and outputs
  std::vector<std::string> group_names() const;
  // The group named by the text parameter `key` of `p`; a located error listing the groups otherwise.
  const GroupSpec& group_param(const Params& p, const std::string& key) const;
};

PlatformSpec parse_platform(const Params& platform);
const ParamTable& platform_params();
const ParamTable& group_params();

}  // namespace llsim
