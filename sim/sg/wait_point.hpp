// A place where actors wait for a condition that other actors make true (a SimGrid mutex and
// condition variable). Whoever changes what the condition reads calls notify_all(). Create it
// inside the running simulation.
#pragma once
#include <functional>
#include <memory>

namespace llsim {

class WaitPoint {
 public:
  WaitPoint();
  ~WaitPoint();
  WaitPoint(const WaitPoint&)            = delete;
  WaitPoint& operator=(const WaitPoint&) = delete;

  void notify_all();
  void notify_one();
  // Waits until `ready()` holds or the simulated clock reaches `deadline` (+inf: no deadline);
  // returns true when ready() holds (checked last, with nothing run in between).
  bool wait_until(const std::function<bool()>& ready, double deadline);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace llsim
