#include "sim/serve/serve_instance.hpp"

#include "sim/core/errors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/wait_point.hpp"

#include <limits>

namespace llsim {

ServeInstance::ServeInstance(int index, HostId host, const BatcherConfig& config, InstanceRole role, ServeTally& tally)
    : index_(index), host_(host), batcher_(config, role), tally_(tally)
{
}

ServeInstance::~ServeInstance() = default;

void ServeInstance::start(const Platform& platform, const std::string& label)
{
  wake_  = std::make_unique<WaitPoint>();
  actor_ = start_actor(platform, host_, "instance-" + std::to_string(index_), label, [this] { loop(); });
}

void ServeInstance::submit(const SeqArrival& s, bool expected)
{
  if (expected)
    incoming_ -= 1;
  batcher_.add(s);
  wake_->notify_all();
}

void ServeInstance::close()
{
  closed_ = true;
  wake_->notify_all();
}

void ServeInstance::loop()
{
  const double forever = std::numeric_limits<double>::infinity();
  while (true) {
    wake_->wait_until([this] { return !batcher_.idle() || closed_; }, forever);
    if (batcher_.idle())
      return;
    const BatchWork work = batcher_.plan();
    if (work.empty())  // a sequence that can never fit was let in: a bug of the system
      throw SimulationError("serving instance " + std::to_string(index_) + " has work it cannot schedule");
    const double t0      = now();
    const double busy    = run_(work);
    const double kv_used = batcher_.kv_used_share();
    batcher_.complete(*this);
    tally_.iteration(index_, now(), now() - t0, busy, work.decodes + work.prefills, kv_used);
  }
}

void ServeInstance::token(int64_t id, bool first)
{
  tally_.token(id, now(), first);
}

void ServeInstance::finished(int64_t id)
{
  tally_.finished(id, now());
  if (on_done_)
    on_done_();
}

void ServeInstance::handed_off(int64_t id)
{
  on_handoff_(id);
}

}  // namespace llsim
