// The SimGrid engine with llsim's fixed configuration (one per process, as SimGrid allows):
// - the network model of the platform (platform.network.model: cm02 by default, or lv08);
//   cross-traffic (ACKs sharing the reverse direction) is off, so a flow only loads the links it
//   crosses in its own direction;
// - network sharing recomputed in full at every event (network/optim:Full). SimGrid 3.32's
//   default lazy update gives flows that end their latency phase at the same instant too large
//   a share (measured: 8 such flows each at the full 2 GB/s of one shared NIC, 2% faster than
//   the NIC allows over a whole transfer); the full update is right, and faster here too (the
//   96,000-node checkpoint write: 25 s instead of 34 s);
// - small actor stacks and no guard pages, so 100k+ actors fit (docs/design.md);
// - SimGrid's own logging only for warnings and errors, and the user's --log settings.
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <memory>
#include <string>
#include <vector>

namespace simgrid::s4u {
class Engine;
}

namespace llsim {

struct EngineOptions {
  NetworkModel network = NetworkModel::Cm02;
  // Logging settings in llsim's form "llsim.svc.storage:debug" (see log_setting.hpp).
  std::vector<std::string> log_settings;
};

class Engine {
 public:
  explicit Engine(const EngineOptions& options);
  ~Engine();
  Engine(const Engine&)            = delete;
  Engine& operator=(const Engine&) = delete;

  // Runs until every actor that is not a daemon (service threads are daemons) has ended.
  void run();

 private:
  std::unique_ptr<simgrid::s4u::Engine> engine_;
};

}  // namespace llsim
