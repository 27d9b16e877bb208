#include "sim/sg/timer.hpp"

#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/wait_ledger.hpp"

#include <simgrid/s4u/Semaphore.hpp>

#include <cmath>
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
    int phase;  // whose work it is (wait_ledger.hpp)
    bool operator>(const Due& o) const { return t > o.t || (t == o.t && order > o.order); }
  };
  const Platform& platform;
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due;
  uint64_t next_order = 0;
  // The daemon sleeps on a semaphore until its next due time; another actor that schedules an
  // earlier callback releases it. One simcall per wake, and none for the callbacks that the
  // daemon's own callbacks schedule, which are most of them.
  simgrid::s4u::SemaphorePtr wake = simgrid::s4u::Semaphore::create(0);
  bool running                    = false;  // the daemon is running callbacks
  double planned_s                = 0;      // when it wakes next, unless released before

  explicit Impl(const Platform& p)
      : platform(p)
  {}

  void loop()
  {
    while (true) {
      running = true;
      while (!due.empty() && due.top().t <= now()) {
        auto f          = std::move(const_cast<Due&>(due.top()).f);
        const int phase = due.top().phase;
        due.pop();
        set_phase_tag(phase);
        f();
        set_phase_tag(kNoPhase);
      }
      running   = false;
      planned_s = due.empty() ? std::numeric_limits<double>::infinity() : due.top().t;
      if (std::isinf(planned_s))
        wake->acquire();
      else
        wake->acquire_timeout(planned_s - now());
    }
  }
};

// The daemon starts here, outside any actor: starting it from the first caller would be a
// simcall, and another actor could call `at` while the first one waits for it.
Timer::Timer(const Platform& platform)
    : impl_(std::make_unique<Impl>(platform))
{
  start_daemon(platform, 0, "timer", "timer", [impl = impl_.get()] { impl->loop(); });
}
Timer::~Timer() = default;

void Timer::at(double t, std::function<void()> f)
{
  // The callback works for the phase that scheduled it (sim/sg/wait_ledger.hpp).
  impl_->due.push({t, impl_->next_order++, std::move(f), phase_tag()});
  if (!impl_->running && t < impl_->planned_s) {
    impl_->planned_s = -std::numeric_limits<double>::infinity();  // released already
    impl_->wake->release();
  }
}

}  // namespace llsim
