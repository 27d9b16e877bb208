// A phase's use of a host group, as it reports it after the run.
#pragma once
#include <optional>
#include <string>

namespace llsim {

// What a phase held of one group while it ran, for the accounting (sim/accounting/accounting.hpp).
struct GroupUse {
  std::string group;
  // Host-seconds its hosts were allocated to the phase; absent: all of them from its start to end.
  std::optional<double> held_host_s;
  double busy_host_s = 0;  // host-seconds at work: its GPUs computing, or its cores running tasks
  // Host-seconds of GPU work at full load (busy time weighted by GPU utilisation, gpu_load.hpp);
  // absent: busy_host_s, the GPUs fully used whenever busy.
  std::optional<double> gpu_load_host_s;
};

}  // namespace llsim
