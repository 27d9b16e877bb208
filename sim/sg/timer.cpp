#include "sim/sg/timer.hpp"

#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/wait_point.hpp"

#include <cstdint>
#include <limits>
#include <queue>
#include <vector>

namespace llsim {

struct Timer::Impl {
  struct Due {
    double t;
    uint64_t order;
    std::function<void()> f;
    bool operator>(const Due& o) const { return t > o.t || (t == o.t && order > o.order); }
  };
  const Platform& platform;
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due;
  uint64_t next_order = 0;
  WaitPoint changed;

  explicit Impl(const Platform& p) : platform(p) {}

  void loop()
  {
    while (true) {
      const double next = due.empty() ? std::numeric_limits<double>::infinity() : due.top().t;
      const uint64_t seen = next_order;
      // Wake at the next due time, or earlier when something is scheduled.
      changed.wait_until([this, seen] { return next_order != seen; }, next);
      while (!due.empty() && due.top().t <= now()) {
        auto f = std::move(const_cast<Due&>(due.top()).f);
        due.pop();
        f();
      }
    }
  }
};

// The daemon starts here, outside any actor: starting it from the first caller would be a
// simcall, and another actor could call `at` while the first one waits for it.
Timer::Timer(const Platform& platform) : impl_(std::make_unique<Impl>(platform))
{
  start_daemon(platform, 0, "timer", "timer", [impl = impl_.get()] { impl->loop(); });
}
Timer::~Timer() = default;

void Timer::at(double t, std::function<void()> f)
{
  impl_->due.push({t, impl_->next_order++, std::move(f)});
  impl_->changed.notify_all();
}

}  // namespace llsim
