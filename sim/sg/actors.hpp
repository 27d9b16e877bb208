// Starting SimGrid actors. An actor whose body throws SimulationError ends the process at once
// with that error on stderr and exit status 1, before any output is written. (Unwinding a
// half-finished SimGrid simulation from inside an actor is not supported by SimGrid 3.32:
// killing the other actors from there aborts the engine.)
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <functional>
#include <memory>
#include <string>

namespace llsim {

class Platform;

// What must not outlive a simulation that failed in an actor (which ends the process without
// unwinding): a run's staging folder. One at a time; an empty function clears it.
void on_failed_simulation(std::function<void()> cleanup);

// A started actor; join() waits (from another actor) until it has ended.
class Actor {
 public:
  struct Impl;  // the SimGrid actor (actors.cpp)
  Actor() = default;
  explicit Actor(std::shared_ptr<Impl> impl)
      : impl_(std::move(impl))
  {}
  void join();

 private:
  std::shared_ptr<Impl> impl_;
};

// `label` prefixes an error message, e.g. "phase 'stage'".
Actor start_actor(const Platform& platform, HostId host, const std::string& name, const std::string& label,
                  std::function<void()> body);
// A daemon (a service thread) is killed when every other actor has ended; nobody joins it.
Actor start_daemon(const Platform& platform, HostId host, const std::string& name, const std::string& label,
                   std::function<void()> body);

}  // namespace llsim
