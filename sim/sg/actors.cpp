#include "sim/sg/actors.hpp"

#include "sim/core/errors.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/wait_ledger.hpp"

#include <simgrid/s4u/Actor.hpp>

#include <cstdio>
#include <cstdlib>

namespace llsim {

struct Actor::Impl {
  simgrid::s4u::ActorPtr actor;
};

void Actor::join()
{
  if (impl_)
    impl_->actor->join();
}

namespace {

std::function<void()>& failure_cleanup()
{
  static std::function<void()> cleanup;
  return cleanup;
}

Actor create(const Platform& platform, HostId host, const std::string& name, const std::string& label,
             std::function<void()> body, bool daemon)
{
  auto impl     = std::make_shared<Actor::Impl>();
  const int tag = phase_tag();  // the creator's: the new actor works for the same phase
  // A daemon makes itself one: created from another actor, it may run (and even end) before
  // its creator gets control back, and daemonizing an actor that has ended corrupts SimGrid
  // 3.32's list of daemons.
  impl->actor = simgrid::s4u::Actor::create(name, platform.host(host), [label, daemon, tag, body = std::move(body)] {
    if (daemon)
      simgrid::s4u::Actor::self()->daemonize();
    set_phase_tag(tag);
    try {
      body();
    } catch (const SimulationError& e) {
      std::fprintf(stderr, "llsim: simulation failed: %s: %s\n", label.c_str(), e.what());
      std::fflush(nullptr);
      if (failure_cleanup())
        failure_cleanup()();
      std::_Exit(kExitSimulationFailure);
    }
  });
  return Actor(impl);
}

}  // namespace

void on_failed_simulation(std::function<void()> cleanup)
{
  failure_cleanup() = std::move(cleanup);
}

Actor start_actor(const Platform& platform, HostId host, const std::string& name, const std::string& label,
                  std::function<void()> body)
{
  return create(platform, host, name, label, std::move(body), false);
}

Actor start_daemon(const Platform& platform, HostId host, const std::string& name, const std::string& label,
                   std::function<void()> body)
{
  return create(platform, host, name, label, std::move(body), true);
}

}  // namespace llsim
