// The SimGrid platform built from a PlatformSpec. Each group is a star zone: one host per node
// with a full-duplex NIC (split-duplex link) to the group's centre. Groups are joined either by
// a shared backbone link (a star of groups: every flow between two groups crosses it once, so
// its bandwidth is the aggregate capacity between groups) or by the explicit topology's links.
// Hosts are addressed by HostId (platform_spec.hpp). Disks are not SimGrid disks: a storage
// service's disks are its own model (sim/svc/disk_worker.hpp).
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/sg/link_census.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace simgrid::s4u {
class Host;
}  // namespace simgrid::s4u

namespace llsim {

class Platform {
 public:
  // Builds into the engine's root zone; host speeds are drawn from the scenario seed.
  Platform(const PlatformSpec& spec, uint64_t seed);

  const PlatformSpec& spec() const { return spec_; }
  simgrid::s4u::Host* host(HostId h) const { return hosts_[h]; }
  double speed(HostId h) const;  // flop/s of one core
  const std::string& name(HostId h) const;
  // The flows on each link now: the network activities count theirs in and out of a platform
  // they otherwise only read.
  LinkCensus& census() const { return census_; }

 private:
  const PlatformSpec& spec_;
  std::vector<simgrid::s4u::Host*> hosts_;
  mutable LinkCensus census_;
};

}  // namespace llsim
