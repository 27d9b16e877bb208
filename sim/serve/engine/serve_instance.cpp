#include "sim/serve/engine/serve_instance.hpp"

#include "sim/core/errors.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/serve/cost/iteration_model.hpp"
#include "sim/serve/engine/iteration_waits.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/wait_ledger.hpp"
#include "sim/sg/wait_point.hpp"

#include <algorithm>
#include <limits>
#include <vector>

XBT_LOG_EXTERNAL_CATEGORY(llsim_serve);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_serve_instance, llsim_serve, "requests queued at and lost by an instance");

namespace llsim {

ServeInstance::ServeInstance(int index, HostId host, const BatcherConfig& config, InstanceRole role, ServeTally& tally)
    : index_(index)
    , host_(host)
    , batcher_(config, role)
    , tally_(tally)
    , swaps_(index, host, batcher_, tally.swaps())
{}

ServeInstance::~ServeInstance() = default;

void ServeInstance::start(const Platform& platform, const std::string& label)
{
  wake_         = std::make_unique<WaitPoint>();
  held_since_s_ = now();
  actor_        = start_actor(platform, host_, "instance-" + std::to_string(index_), label, [this] { loop(); });
}

void ServeInstance::set_faults(HostFaults& faults, std::vector<HostId> hosts)
{
  faults_ = &faults;
  fault_hosts_.clear();
  for (HostId h : hosts)
    if (faults.may_fail(h))
      fault_hosts_.push_back(h);
}

void ServeInstance::set_weights(WeightSource& source, const WeightTarget& target, LoadTally& loads)
{
  weights_ = std::make_unique<InstanceWeights>(
      source, target, loads, [this] { loaded_ = true; }, [this] { return serving(); });
  loaded_ = false;
}

bool ServeInstance::accepting() const
{
  return allocated_ && provisioned_at_s_ <= now() && up();
}

bool ServeInstance::up() const
{
  for (HostId h : fault_hosts_)
    if (faults_->is_down(h, now()))
      return false;
  return true;
}

double ServeInstance::next_failure() const
{
  double first = std::numeric_limits<double>::infinity();
  for (HostId h : fault_hosts_)
    first = std::min(first, faults_->next_failure(h, now()));
  return first;
}

void ServeInstance::lose(int64_t id)
{
  tally_.failed(id, now());
  if (on_lost_)
    on_lost_(id);
}

void ServeInstance::end_timed_out(int64_t id)
{
  XBT_DEBUG("request %ld aborted at instance %d: its client's timeout passed", static_cast<long>(id), index_);
  tally_.timed_out(id, now());
  if (on_lost_)
    on_lost_(id);
}

void ServeInstance::abort_timed_out()
{
  if (!tally_.has_client_timeout())
    return;
  const std::vector<int64_t> expired = tally_.timed_out_by(batcher_.sequence_ids(), now());
  batcher_.abort(expired, *this);
  note_load();
  for (int64_t id : expired)
    end_timed_out(id);
}

void ServeInstance::lose_incoming(int64_t id)
{
  incoming_ -= 1;
  note_load();
  lose(id);
}

void ServeInstance::submit(const SeqArrival& s, bool expected)
{
  if (expected)
    incoming_ -= 1;
  note_load();
  if (!up()) {
    XBT_DEBUG("request %ld lost: instance %d is down", static_cast<long>(s.id), index_);
    lose(s.id);
    return;
  }
  if (tally_.deadline(s.id) <= now()) {  // its client gave up on its way here
    end_timed_out(s.id);
    return;
  }
  XBT_DEBUG("request %ld queued at instance %d: %ld tokens of context need %ld KV blocks, %ld free of %ld; %ld "
            "running, %ld waiting",
            static_cast<long>(s.id), index_, static_cast<long>(s.input_tokens + s.generated),
            static_cast<long>(batcher_.blocks_for(s.input_tokens + s.generated)),
            static_cast<long>(batcher_.free_blocks()), static_cast<long>(batcher_.kv_blocks()),
            static_cast<long>(batcher_.running()), static_cast<long>(batcher_.waiting()));
  batcher_.add(s);
  note_load();
  submitted_ += 1;
  wake_->notify_all();
}

void ServeInstance::close()
{
  closed_ = true;
  wake_->notify_all();
}

void ServeInstance::allocate(double provisioning_s)
{
  allocated_ = true;
  if (held_) {  // still finishing its requests: it keeps its GPUs and weights
    wake_->notify_all();
    return;
  }
  held_             = true;
  held_since_s_     = now();
  provisioned_at_s_ = now() + provisioning_s;
  wake_->notify_all();
}

void ServeInstance::start_released()
{
  if (weights_)
    weights_->not_initial();
  allocated_ = false;
  held_      = false;
  loaded_    = weights_ == nullptr;
}

void ServeInstance::release()
{
  allocated_ = false;
  wake_->notify_all();
}

void ServeInstance::give_back()
{
  if (held_)
    held_s_ += now() - held_since_s_;
  held_   = false;
  loaded_ = weights_ == nullptr;
  batcher_.forget_cache();
}

void ServeInstance::stop_holding()
{
  if (held_)
    held_s_ += now() - held_since_s_;
  held_since_s_ = now();
}

bool ServeInstance::wait_for_allocation()
{
  const double forever = std::numeric_limits<double>::infinity();
  give_back();
  wake_->wait_until([this] { return allocated_ || closed_; }, forever);
  if (!allocated_)
    return false;
  // A host or container starting; released meanwhile, it gives its GPUs back at once.
  wake_->wait_until([this] { return closed_ || !allocated_; }, provisioned_at_s_);
  return !closed_;
}

void ServeInstance::loop()
{
  const double forever = std::numeric_limits<double>::infinity();
  while (true) {
    if (!allocated_ && batcher_.idle()) {  // released, and done with its requests
      if (!wait_for_allocation())
        return;
      continue;
    }
    if (!loaded_) {
      load_weights();
      if (!loaded_ && closed_)
        return;
      continue;
    }
    // With weights to reload, a failure while idle matters at once.
    const double idle_until = weights_ ? next_failure() : forever;
    wake_->wait_until([this] { return !batcher_.idle() || closed_ || !allocated_; }, idle_until);
    if (batcher_.idle() && closed_)
      return;
    if (batcher_.idle() && !allocated_)
      continue;
    if (batcher_.idle()) {
      fail();
      continue;
    }
    notice_idle_failure();
    abort_timed_out();
    if (batcher_.idle())
      continue;
    const double fail_at = next_failure();
    const int64_t steady = model_ ? batcher_.steady_decode_steps(kMaxSteadySteps) : 0;
    if (steady > 1)
      iterate_steady(steady, fail_at);
    else
      iterate_once(fail_at);
  }
}

void ServeInstance::notice_idle_failure()
{
  for (HostId h : fault_hosts_)
    if (faults_->next_failure(h, checked_s_) <= now()) {
      batcher_.forget_cache();  // the sequences it has came after the failure
      break;
    }
  checked_s_ = now();
}

void ServeInstance::load_weights()
{
  // A released instance that still holds requests loads to serve them, then gives its GPUs back.
  while (!loaded_ && !closed_ && (allocated_ || !batcher_.idle())) {
    if (!up()) {  // it came back from a release while its host is down
      fail();
      continue;
    }
    // Its weights go to its GPU host: only that host's failure cuts the load.
    switch (weights_->load(*wake_, faults_->next_failure(host_, now()), [this] { return stops_loading(); })) {
    case InstanceWeights::Outcome::Loaded:  // loaded_ is set
    case InstanceWeights::Outcome::Stopped:
      return;
    case InstanceWeights::Outcome::Failed:
      fail();
    }
  }
}

void ServeInstance::fail()
{
  XBT_DEBUG("instance %d: a host failed, its %ld requests and prefix cache are lost", index_,
            static_cast<long>(batcher_.running() + batcher_.waiting()));
  swaps_.lose_swapped();
  for (int64_t id : batcher_.drop_all(*this))
    lose(id);
  note_load();
  // Its weights are in its GPU host's memory: lost when that host failed (not an R-worker).
  if (faults_->is_down(host_, now()) || faults_->next_failure(host_, checked_s_) <= now())
    loaded_ = weights_ == nullptr;
  // Up again when every host is (outages of several hosts may overlap or follow each other), or
  // at once when no more work will come.
  for (bool down = true; down && !closed_;) {
    down = false;
    for (HostId h : fault_hosts_)
      if (faults_->is_down(h, now())) {
        wake_->wait_until([this] { return closed_; }, faults_->up_at(h, now()));
        down = true;
        break;
      }
  }
  checked_s_ = now();
}

void ServeInstance::charge_gpu(const BatchWork& work, double seconds)
{
  if (model_)  // a custom run_iteration adds its own (add_gpu_use)
    gpu_use_ += model_->gpu_use(work, seconds, seconds);
  charge_iteration_waits(model_, work, seconds);
}

void ServeInstance::iterate_once(double fail_at)
{
  BatchWork work = batcher_.plan();
  if (work.empty())  // a sequence that can never fit was let in: a bug of the system
    throw SimulationError("serving instance " + std::to_string(index_) + " has work it cannot schedule");
  const double t0       = now();
  work.follows_step     = t0 == last_step_end_;
  const double left_out = static_cast<double>(batcher_.waiting());
  const bool for_memory = batcher_.held_by_memory();
  if (!batcher_.swap_moves().empty() && !swaps_.move(work, fail_at)) {  // its host failed meanwhile
    tally_.cut_iteration(index_, now() - t0);
    fail();
    return;
  }
  const double moves_s = now() - t0;  // through a swap pool; over PCIe they are in the iteration
  if (work.empty()) {                 // its only sequences lost their swapped KV: they are recomputed
    tally_.cut_iteration(index_, moves_s);
    complete_iteration(now());
    return;
  }
  double busy = moves_s;
  if (model_) {
    const double compute =
        model_->seconds(work) + (swaps_.through_pool() ? 0 : batcher_.swap_seconds(work.swapped_blocks));
    busy += compute;
    if (now() + compute > fail_at) {
      gpu_use_ += model_->gpu_use(work, std::max(0.0, fail_at - now()), compute);
      sleep_until(fail_at);
      tally_.cut_iteration(index_, fail_at - t0);
      fail();
      return;
    }
    sleep_for(compute);
    charge_gpu(work, compute);
  } else {
    busy = run_(work);
    if (now() > fail_at) {
      tally_.cut_iteration(index_, std::min(busy, fail_at - t0));
      fail();
      return;
    }
    charge_gpu(work, now() - t0 - moves_s);
  }
  static const WaitResource moves = wait_resource("KV swap moves");
  charge_wait(moves, moves_s * static_cast<double>(work.decodes + work.prefills));
  const double kv_used = batcher_.kv_used_share();
  last_step_end_       = now();
  complete_iteration(now());
  tally_.iteration(index_, now(), now() - t0, busy, work.decodes + work.prefills, kv_used);
  tally_.waited_through_iteration(for_memory, left_out * (now() - t0));
  if (model_)
    tally_.operators(index_, *model_, work);
}

void ServeInstance::iterate_steady(int64_t steps, double fail_at)
{
  const double start        = now();
  BatchWork work            = batcher_.decode_work(0);
  work.follows_step         = start == last_step_end_;
  std::vector<double>& ends = steady_ends_;
  steady_step_ends(*model_, work, steps, start, ends);
  if (tally_.has_client_timeout()) {  // up to the end of the iteration under way when one passes, as one by one
    const auto expiring = std::lower_bound(ends.begin(), ends.end(), tally_.earliest_deadline(batcher_.sequence_ids()));
    if (expiring != ends.end())
      ends.erase(expiring + 1, ends.end());
  }
  const int64_t seen = submitted_;
  wake_->wait_until([this, seen] { return submitted_ != seen; }, std::min(ends.back(), fail_at));
  const auto [done, fails] = steady_steps_done(ends, now(), submitted_ != seen, fail_at);
  // Those but the last have ended by now, and nothing saw the instance between them: their
  // tokens go out in one pass over the sequences (BatchListener::decoded, at ends[0..done-2]).
  double begin = start;
  for (int64_t j = 0; j + 1 < done; ++j) {
    BatchWork w      = batcher_.decode_work(j);
    w.follows_step   = j > 0 || start == last_step_end_;
    const double end = ends[static_cast<size_t>(j)];
    charge_gpu(w, end - begin);
    tally_.iteration(index_, end, end - begin, end - begin, w.decodes,
                     tally_.samples_at(index_, end) ? batcher_.kv_used_share_ahead(j) : 0);
    tally_.operators(index_, *model_, w);
    begin = end;
  }
  if (done > 1) {
    for (int64_t j = 0; j + 1 < done; ++j)
      timeline_.push(ends[static_cast<size_t>(j)]);
    batcher_.advance_steady(done - 1, *this);
  }
  if (done > 0) {  // the last one may still be under way: it is planned before the instance waits for its end
    BatchWork w      = batcher_.plan_steady();
    w.follows_step   = done > 1 || start == last_step_end_;
    const double end = ends[static_cast<size_t>(done - 1)];
    sleep_until(end);
    charge_gpu(w, end - begin);
    const double kv_used = batcher_.kv_used_share();
    complete_iteration(end);
    last_step_end_ = end;
    tally_.iteration(index_, end, end - begin, end - begin, w.decodes, kv_used);
    tally_.operators(index_, *model_, w);
    begin = end;
  }
  if (fails) {
    sleep_until(fail_at);
    // The step the failure cut asked the GPUs for what it did up to the failure, as in
    // iterate_once: the batcher stands at that step now.
    gpu_use_ += model_->gpu_use(batcher_.decode_work(0), fail_at - begin, ends[static_cast<size_t>(done)] - begin);
    tally_.cut_iteration(index_, fail_at - begin);
    fail();
  }
}

void ServeInstance::complete_iteration(double end_s)
{
  event_time_ = end_s;
  timeline_.push(end_s);
  batcher_.complete(*this);
  note_load();
  if (timeline_.grown())
    timeline_.forget(batcher_.oldest_unreported());
}

void ServeInstance::finished(int64_t id)
{
  if (tally_.deadline(id) < event_time_) {  // its client had given up during this iteration
    end_timed_out(id);
    return;
  }
  tally_.finished(id, event_time_);
  if (on_finished_)
    on_finished_(id);
}

void ServeInstance::handed_off(int64_t id)
{
  if (tally_.deadline(id) < event_time_) {  // its client gave up before its first token came out
    end_timed_out(id);
    return;
  }
  on_handoff_(id);
}

}  // namespace llsim
