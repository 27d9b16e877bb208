// Contract of a host fault model (registry "fault_model", chosen with `impl:` in an entry of the
// scenario's top-level `faults:` list, one entry per group):
//
//   faults:
//     - {group: compute, impl: exponential, mtbf: 5y, downtime: 1h}
//
// Pure logic: the outages of each host of the group, in absolute simulated time. A host that is
// down serves nothing and computes nothing; every phase and service on it sees the failure
// (sim/faults/host_faults.hpp).
#pragma once
#include "sim/core/random.hpp"
#include "sim/faults/fault_class.hpp"
#include "sim/platform/platform_spec.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace llsim {

struct Outage {
  double down_s  = std::numeric_limits<double>::infinity();  // +inf: no (further) outage
  double up_s    = std::numeric_limits<double>::infinity();
  uint32_t cause = 0;  // index into the model's causes()
};

// What took a host down: a cause as the model names it (a component, a trace's class) and the
// class it counts under in the metrics.
struct FaultCause {
  std::string name;
  FaultClass fault_class = FaultClass::Host;
};

class FaultModel {
 public:
  struct Context {
    const PlatformSpec& platform;
    const GroupSpec& group;
    uint64_t key;  // the group's random stream key, for models that draw streams of their own
  };
  static constexpr const char* kInterfaceName = "fault_model";
  static constexpr const char* kHeader        = "sim/faults/fault_model.hpp";
  static constexpr const char* kSelector      = "impl";

  virtual ~FaultModel() = default;
  // Outage number k (0-based) of host `index` of the group; `previous_up` is when outage k-1
  // ended (0 for k = 0). `rng` is that host's own stream for outage k, so one host's outages do
  // not depend on any other host or on what the simulation does.
  virtual Outage outage(size_t index, size_t k, double previous_up, Rng& rng) const = 0;
  // Mean time from a host's return to its next failure (+inf: never fails): the MTBF that
  // checkpoint policies use.
  virtual double mtbf_s(size_t index) const = 0;
  // The failure rate of hosts [first, first + count) of the group taken together, in 1/s: a
  // component shared by several of them (a switch) counts once. By default the sum of 1/MTBF.
  virtual double set_rate(size_t first, size_t count) const;
  // The causes an Outage's `cause` indexes; by default one, the host as a whole.
  virtual std::vector<FaultCause> causes() const { return {{"host", FaultClass::Host}}; }
};

}  // namespace llsim
