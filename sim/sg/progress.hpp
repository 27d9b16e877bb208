// The progress line on stderr (simulated time reached, simulated time steps per second of wall
// time, and what phases report on the progress board) for runs that last more than a second of
// wall time. Hooks SimGrid's time-advance signal; erased when the run ends.
#pragma once
#include <chrono>

namespace llsim {

class ProgressLine {
 public:
  ProgressLine();
  ~ProgressLine();
  ProgressLine(const ProgressLine&)            = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  void on_event(double now);

  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point last_print_;
  unsigned long steps_ = 0;
  bool printed_        = false;
};

}  // namespace llsim
