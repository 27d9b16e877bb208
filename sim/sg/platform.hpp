// The SimGrid platform built from a PlatformSpec. Each group is a star zone: one host per node
// with a full-duplex NIC (split-duplex link) to the group's centre. Groups are joined either by
// a shared backbone link (a star of groups: every flow between two groups crosses it once, so
// its bandwidth is the aggregate capacity between groups) or by the explicit topology's links.
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <simgrid/s4u.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace llsim {

struct HostDisk {
  simgrid::s4u::Disk* disk;
  double capacity_B;
};

class Platform {
 public:
  // Builds into the engine's root zone; host speeds are drawn from the scenario seed.
  Platform(const PlatformSpec& spec, uint64_t seed);

  const PlatformSpec& spec() const { return spec_; }
  const std::vector<simgrid::s4u::Host*>& hosts(const std::string& group) const { return hosts_.at(group); }
  const std::vector<HostDisk>& disks(const simgrid::s4u::Host* host) const;
  simgrid::s4u::Host* first_host() const { return hosts_.at(spec_.groups.front().name).front(); }

 private:
  const PlatformSpec& spec_;
  std::map<std::string, std::vector<simgrid::s4u::Host*>> hosts_;
  std::map<const simgrid::s4u::Host*, std::vector<HostDisk>> disks_;
};

}  // namespace llsim
