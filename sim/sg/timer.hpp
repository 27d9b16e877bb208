// Callbacks at given simulated times, run by one daemon actor that
// sleeps until the next one is due. Lets callback-driven code (service completions) wait
// without an actor of its own: a reply that crosses the network, a client that retries once
// its host is back up. Callbacks must not block; they may schedule further callbacks.
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <functional>
#include <memory>

namespace llsim {

class Platform;

class Timer {
 public:
  // Must be built before the simulation starts (outside any actor).
  explicit Timer(const Platform& platform);
  ~Timer();
  Timer(const Timer&)            = delete;
  Timer& operator=(const Timer&) = delete;

  // Runs `f` at time `t` (at once, at the next step, when `t` is not in the future). Callbacks
  // due at the same time run in the order they were scheduled.
  void at(double t, std::function<void()> f);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace llsim
