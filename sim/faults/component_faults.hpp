// A host's outages as the superposition of its components' failures. Each unit of a component
// (one of a host's 8 GPUs, the switch above 16 hosts) alternates an up time and a repair, on a
// random stream of its own; a host is down while any of its units is, so overlapping repairs
// merge into one outage, whose cause is the unit that failed first. A unit shared by several
// hosts (a switch) takes all of them down at the same instants. With exponential up times of
// rates λᵢ, a host fails at Σλᵢ (less the short time it spends down) and a failure is of
// component i with probability λᵢ / Σλᵢ.
// Pure logic: the outages depend only on the key, never on the order hosts are asked about.
#pragma once
#include "sim/core/distribution.hpp"
#include "sim/faults/fault_model.hpp"

#include <memory>
#include <vector>

namespace llsim {

struct ComponentSpec {
  FaultCause cause;
  int64_t count     = 1;  // units per host (per `shared_by` hosts when shared)
  int64_t shared_by = 1;  // hosts under one unit: consecutive hosts of the group
  std::shared_ptr<const Distribution> uptime;
  std::shared_ptr<const Distribution> repair;
};

class ComponentFaults {
 public:
  ComponentFaults(std::vector<ComponentSpec> components, uint64_t key, size_t hosts);

  // Outage k of host `index`; the k of one host must come in order 0, 1, 2, ... (HostFaults
  // asks so).
  Outage outage(size_t index, size_t k);
  // Failures per second of one host: Σ count / mean up time.
  double host_rate() const;
  // Of hosts [first, first + count) together: a shared unit counts once.
  double set_rate(size_t first, size_t count) const;
  std::vector<FaultCause> causes() const;

 private:
  struct Unit {
    size_t component;
    uint64_t stream;  // key of this unit's outages
    size_t drawn = 0;
    Outage next;  // the unit's next outage not yet merged into a host outage
  };
  std::vector<Unit> units_of(size_t host) const;
  void advance(Unit& u) const;  // draws the unit's next outage after the current one

  std::vector<ComponentSpec> components_;
  std::vector<uint64_t> component_keys_;
  std::vector<std::vector<Unit>> units_;  // per host, made at its first outage
  std::vector<size_t> next_k_;            // per host: the outage it asks for next
};

}  // namespace llsim
