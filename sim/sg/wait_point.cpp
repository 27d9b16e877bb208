#include "sim/sg/wait_point.hpp"

#include "sim/sg/clock.hpp"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u/ConditionVariable.hpp>
#include <simgrid/s4u/Mutex.hpp>

#include <cmath>
#include <mutex>

namespace sg4 = simgrid::s4u;

namespace llsim {

struct WaitPoint::Impl {
  sg4::MutexPtr mutex          = sg4::Mutex::create();
  sg4::ConditionVariablePtr cv = sg4::ConditionVariable::create();
};

WaitPoint::WaitPoint()
    : impl_(std::make_unique<Impl>())
{}
WaitPoint::~WaitPoint() = default;

void WaitPoint::notify_all()
{
  impl_->cv->notify_all();
}

void WaitPoint::notify_one()
{
  impl_->cv->notify_one();
}

bool WaitPoint::wait_until(const std::function<bool()>& ready, double deadline)
{
  // Locking and unlocking a SimGrid mutex are simcalls, and another actor may run at each:
  // the condition is checked again after the lock is released, and holds when this returns true.
  // A service daemon is killed at the end of the simulation by an exception out of whichever
  // simcall it is in: the mutex is locked and unlocked by hand, never by a destructor, which
  // must not throw.
  while (!ready()) {
    if (!std::isinf(deadline) && now() >= deadline)
      return false;
    impl_->mutex->lock();
    if (!ready()) {
      std::unique_lock lock(*impl_->mutex, std::adopt_lock);
      try {
        if (std::isinf(deadline))
          impl_->cv->wait(lock);
        else
          impl_->cv->wait_until(lock, deadline);
      } catch (const simgrid::ForcefulKillException&) {
        lock.release();
        throw;
      }
      lock.release();  // still locked: the wait takes the mutex again before it returns
    }
    impl_->mutex->unlock();
  }
  return true;
}

}  // namespace llsim
