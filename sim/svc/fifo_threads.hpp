// A server's `threads` taking requests first come, first served, computed in closed form
// (Lindley's recursion) instead of simulated: a request submitted with its arrival time starts
// when it has arrived and a thread is free, and holds that thread for its service time. Requests
// are taken in the order they are submitted; one that is still on its way holds up the ones
// behind it (a thread waits for it), as a queue in arrival order does when every client is as
// far from the server. No events: the metadata service serves millions of small operations.
#pragma once
#include <cstddef>
#include <functional>
#include <queue>
#include <vector>

namespace llsim {

class FifoThreads {
 public:
  explicit FifoThreads(size_t threads)
  {
    for (size_t i = 0; i < threads; ++i)
      free_at_.push(0);
  }
  // When the next request in line can start, at the earliest.
  double next_free() const { return free_at_.top(); }
  // The next thread in line is busy until `until`.
  void occupy(double until)
  {
    free_at_.pop();
    free_at_.push(until);
  }

 private:
  std::priority_queue<double, std::vector<double>, std::greater<double>> free_at_;
};

}  // namespace llsim
