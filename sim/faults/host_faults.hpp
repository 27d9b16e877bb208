// The outages of every host, from the fault models of the scenario's `faults:` list (hosts of a
// group without an entry never fail). Outages are drawn lazily, host by host, each from its own
// random stream, and kept: the answer for a host and a time never changes.
#pragma once
#include "sim/core/params.hpp"
#include "sim/faults/fault_model.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace llsim {

class HostFaults {
 public:
  HostFaults(const PlatformSpec& platform, uint64_t seed);

  // The `faults:` list of a scenario; ConfigError for an unknown group or a group given twice.
  void load(const YamlRef& faults);
  static const ParamTable& entry_params();  // keys every entry has besides its model's (group)

  bool may_fail(HostId h) const { return model_of_[h] >= 0; }
  // The outage under way at `t`, or else the next one (down_s = +inf: none).
  Outage outage_at(HostId h, double t);
  bool is_down(HostId h, double t) { return outage_at(h, t).down_s <= t; }
  // When the host is up again: `t` itself when it is up at `t`.
  double up_at(HostId h, double t)
  {
    const Outage o = outage_at(h, t);
    return o.down_s <= t ? o.up_s : t;
  }
  // The first outage that begins at or after `t` (down_s = +inf: none), and its start.
  Outage next_outage(HostId h, double t);
  double next_failure(HostId h, double t) { return next_outage(h, t).down_s; }
  // The host's mean time between failures (+inf when it never fails).
  double mtbf_s(HostId h) const;
  // The failure rate of hosts [first, first + count) taken together, in 1/s (a component shared
  // by several of them counts once).
  double set_rate(HostId first, size_t count) const;
  // What caused an outage of host h (as its fault model names it).
  const FaultCause& cause(HostId h, const Outage& o) const;

 private:
  struct Model {
    const GroupSpec* group;
    std::unique_ptr<FaultModel> model;
    uint64_t key;
    std::vector<FaultCause> causes;
    std::string at;  // where the scenario declares it ("file:line:col"), for its errors
  };
  const Outage& outage(HostId h, size_t k);  // generates up to outage k
  [[noreturn]] void refuse_excess_outages(const Model& model, double reached_s) const;

  const PlatformSpec& platform_;
  uint64_t seed_;
  std::vector<Model> models_;
  std::vector<int> model_of_;                 // per host: index into models_, -1 none
  std::vector<std::vector<Outage>> outages_;  // per host: drawn so far
  size_t drawn_ = 0;                          // over all hosts (bounded: sim/core/work_limits.hpp)
};

// The failures of a set of hosts taken together, e.g. a job that fails when one of its nodes
// does: the earliest next failure over the hosts (a heap of each host's next outage start).
class GroupFailures {
 public:
  GroupFailures(HostFaults& faults, HostId first, size_t count);
  // The first failure starting at or after `t`: (time, host); time +inf when none.
  std::pair<double, HostId> next(double t);
  // Every host whose next failure starts exactly at `t` (a shared switch, a trace's simultaneous
  // faults), lowest first; call after next() returned `t`.
  std::vector<HostId> starting_at(double t);
  // Mean time between failures of the set: 1 / sum of 1/MTBF (+inf when none fails).
  double mtbf_s() const { return mtbf_s_; }

 private:
  HostFaults& faults_;
  std::vector<std::pair<double, HostId>> heap_;  // min-heap of (next failure, host)
  double mtbf_s_;
};

}  // namespace llsim
