// Contract of a phase kind (registry "phase", selected by `kind:`).
// - The constructor reads and checks every parameter (no SimGrid objects exist yet) and keeps no
//   Params; it may look up platform groups and the services it uses in the context.
// - run() executes inside a SimGrid actor when the phase starts (after its `after:` phases and
//   not before its `start:` time) and returns when the phase is done. It may start actors
//   (sim/sg/actors.hpp) and must wait for them. It throws SimulationError when the simulated
//   system cannot go on.
// - metrics() and tables() are read after the simulation: fixed metric names per kind, SI units.
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/metrics.hpp"
#include "sim/core/random.hpp"
#include "sim/core/yaml_ref.hpp"
#include "sim/phase/group_use.hpp"
#include "sim/platform/platform_spec.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace llsim {

class HostFaults;
class Platform;
class ServiceDirectory;
class Timer;

struct OutputTable {
  std::string suffix;  // "" -> <phase>.csv, "x" -> <phase>_x.csv
  CsvWriter table;
};

// A host group a phase computes on as its own (the GPUs of serving instances, a training job's
// nodes, the workers of a preprocess or tasks phase), and where the scenario names it. Two phases that may run at the same time cannot claim
// one group: each would simulate all of its hosts as free for itself.
struct GroupClaim {
  std::string group;
  YamlRef where;
};

struct PhaseLoadContext {
  const PlatformSpec& platform;
  std::string phase_name;
  uint64_t seed;  // the scenario's, for inputs generated at load time (Rng::stream)
  ServiceDirectory& services;
  std::vector<std::string> after;   // the phases this one waits for
  std::vector<GroupClaim>& claims;  // the phase adds the groups it computes on
  // and the other groups it runs on without computing (clients, a master): the accounting bills
  // claims and uses alike, from the phase's start to its end unless usage() says otherwise
  std::vector<std::string>& uses;
  // What the run must tell its user once (console and report.md): the scenario's notes.
  std::vector<std::string>* notes = nullptr;
};

struct PhaseRuntime {
  const Platform& platform;
  HostFaults& faults;
  Timer& timer;       // callbacks at later times (sim/sg/timer.hpp)
  Rng rng;            // this phase's own stream of the scenario seed
  std::string label;  // "phase 'name'": give it to start_actor (sim/sg/actors.hpp)
  // Whether a phase other than this one is running now (to decide whether its I/O contends).
  std::function<bool()> others_running;
  // The metrics of a phase this one waits for (`after`), which has ended.
  std::function<Metrics(const std::string& phase)> metrics_of;
};

// What limited a phase: seconds per resource, and what they are seconds of (a share of them is a
// share of that time).
struct PhaseTime {
  std::map<std::string, double> seconds;
  std::string of;  // "the requests' time", "the job's time", ...
};

class Phase {
 public:
  using Context                               = PhaseLoadContext;
  static constexpr const char* kInterfaceName = "phase";
  static constexpr const char* kHeader        = "sim/phase/phase.hpp";
  static constexpr const char* kSelector      = "kind";

  virtual ~Phase()                                = default;
  virtual void run(PhaseRuntime& runtime)         = 0;
  virtual Metrics metrics() const                 = 0;
  virtual std::vector<OutputTable> tables() const = 0;
  // After the run: what it held and used of some of its groups (claims and uses). A group it
  // does not report was held whole from its start to its end, idle.
  virtual std::vector<GroupUse> usage() const { return {}; }
  // After the run, from the seconds its work was charged at each resource (sim/sg/wait_ledger.hpp):
  // by default those seconds as they are, where parallel work each counts. A phase whose charges
  // are not in its own time (a training job's I/O requests run many at once, some only charged)
  // turns them into its time.
  virtual PhaseTime time_spent(std::map<std::string, double> charged) const
  {
    return {std::move(charged), "its work's time"};
  }
  // Once every phase of the scenario is loaded: checks that need what other phases declare
  // (files a later-listed phase writes); a ConfigError when they fail.
  virtual void check_with_others() const {}
};

}  // namespace llsim
