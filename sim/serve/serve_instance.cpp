#include "sim/serve/serve_instance.hpp"

#include "sim/core/errors.hpp"
#include "sim/serve/iteration_model.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/wait_point.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace llsim {

namespace {

// Identical decode iterations taken in one wait at most (bounds the end times kept).
constexpr int64_t kMaxSteadySteps = 4096;

}  // namespace

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
  submitted_ += 1;
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
    const int64_t steady = model_ ? batcher_.steady_decode_steps(kMaxSteadySteps) : 0;
    if (steady > 1)
      iterate_steady(steady);
    else
      iterate_once();
  }
}

void ServeInstance::iterate_once()
{
  const BatchWork work = batcher_.plan();
  if (work.empty())  // a sequence that can never fit was let in: a bug of the system
    throw SimulationError("serving instance " + std::to_string(index_) + " has work it cannot schedule");
  const double t0 = now();
  double busy     = 0;
  if (model_) {
    busy = model_->seconds(work);
    sleep_for(busy);
  } else {
    busy = run_(work);
  }
  const double kv_used = batcher_.kv_used_share();
  event_time_          = now();
  batcher_.complete(*this);
  tally_.iteration(index_, now(), now() - t0, busy, work.decodes + work.prefills, kv_used);
}

void ServeInstance::iterate_steady(int64_t steps)
{
  const double start = now();
  BatchWork work     = batcher_.decode_work(0);
  std::vector<double> ends;
  double t = start;
  for (int64_t j = 0; j < steps; ++j) {
    t += model_->seconds(work);
    ends.push_back(t);
    work.decode_context += static_cast<double>(work.decodes);
  }
  const int64_t seen = submitted_;
  wake_->wait_until([this, seen] { return submitted_ != seen; }, ends.back());
  // The iterations that ended by now, and the one under way.
  const auto done = std::lower_bound(ends.begin(), ends.end(), now() - 1e-12) - ends.begin() + 1;
  double begin    = start;
  for (int64_t j = 0; j < std::min<int64_t>(done, steps); ++j) {
    const BatchWork w = batcher_.plan_steady();
    sleep_until(ends[static_cast<size_t>(j)]);
    const double kv_used = batcher_.kv_used_share();
    event_time_          = ends[static_cast<size_t>(j)];
    batcher_.complete(*this);
    tally_.iteration(index_, event_time_, event_time_ - begin, event_time_ - begin, w.decodes, kv_used);
    begin = event_time_;
  }
}

void ServeInstance::token(int64_t id, bool first)
{
  tally_.token(id, event_time_, first);
}

void ServeInstance::finished(int64_t id)
{
  tally_.finished(id, event_time_);
  if (on_finished_)
    on_finished_(id);
}

void ServeInstance::handed_off(int64_t id)
{
  on_handoff_(id);
}

}  // namespace llsim
