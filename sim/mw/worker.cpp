// The worker side of the master-worker runtime (see master_worker.hpp).
#include "sim/mw/master_worker.hpp"

#include <simgrid/Exception.hpp>

#include <algorithm>
#include <cmath>
#include <mutex>

namespace sg4 = simgrid::s4u;

namespace llsim {

bool MasterWorker::wait_activity(const sg4::ActivityPtr& a, double deadline, double* remaining)
{
  if (std::isinf(deadline)) {
    a->wait();
    return true;
  }
  try {
    a->wait_until(deadline);
    return true;
  } catch (const simgrid::TimeoutException&) {
    if (remaining != nullptr)
      *remaining = a->get_remaining();  // before cancel(), which forgets it
    a->cancel();
    return false;
  }
}

bool MasterWorker::transfer(sg4::Host* from, sg4::Host* to, double bytes, double deadline)
{
  if (bytes < 1)
    return true;
  if (!wait_activity(sg4::Comm::sendto_async(from, to, static_cast<uint64_t>(bytes)), deadline))
    return false;
  totals_.bytes_transferred += bytes;
  return true;
}

bool MasterWorker::write_checkpoint(size_t w, size_t task, double progress, double deadline)
{
  const TaskCheckpointing& policy = setup_.checkpointing;
  const double size               = policy.size_B();
  WorkerState& state              = workers_[w];
  SavedCheckpoint saved{progress, static_cast<long>(w), -1};
  if (policy.store() == CheckpointStore::WorkerDisk) {
    const auto& disks = setup_.platform.disks(state.host);
    if (!wait_activity(disks[task % disks.size()].disk->write_async(static_cast<uint64_t>(size)), deadline))
      return false;
  } else {
    saved.server        = static_cast<long>(task % setup_.checkpoint_servers.size());
    sg4::Host* server   = setup_.checkpoint_servers[static_cast<size_t>(saved.server)];
    if (!transfer(state.host, server, size, deadline))
      return false;
    const auto& disks = setup_.platform.disks(server);
    if (!disks.empty() &&
        !wait_activity(disks[task % disks.size()].disk->write_async(static_cast<uint64_t>(size)), deadline))
      return false;
  }
  saved_[task] = saved;
  totals_.checkpoint_bytes += size;
  return true;
}

bool MasterWorker::read_checkpoint(size_t w, size_t task, double deadline)
{
  const double size         = setup_.checkpointing.size_B();
  const SavedCheckpoint& cp = saved_[task];
  WorkerState& state        = workers_[w];
  if (setup_.checkpointing.store() == CheckpointStore::WorkerDisk) {
    const auto& disks = setup_.platform.disks(state.host);
    return wait_activity(disks[task % disks.size()].disk->read_async(static_cast<uint64_t>(size)), deadline);
  }
  sg4::Host* server = setup_.checkpoint_servers[static_cast<size_t>(cp.server)];
  const auto& disks = setup_.platform.disks(server);
  if (!disks.empty() &&
      !wait_activity(disks[task % disks.size()].disk->read_async(static_cast<uint64_t>(size)), deadline))
    return false;
  return transfer(server, state.host, size, deadline);
}

bool MasterWorker::run_task(size_t w, size_t task)
{
  WorkerState& state  = workers_[w];
  const Task& t       = tasks_[task];
  const double down   = state.outage.down_s;
  const double speed  = state.host->get_speed();
  TaskRecord& record  = records_[task];
  record.attempts += 1;
  if (record.start_s < 0)
    record.start_s = sg4::Engine::get_clock();

  if (!transfer(setup_.master, state.host, t.input_B, down))
    return false;
  double progress = 0;
  if (setup_.checkpointing.can_resume(saved_[task], w)) {
    if (!read_checkpoint(w, task, down))
      return false;
    progress = saved_[task].progress_flops;
  }
  const double segment = std::isinf(setup_.checkpointing.interval_s()) ? t.flops : setup_.checkpointing.interval_s() * speed;
  while (progress < t.flops) {
    const double flops = std::min(segment, t.flops - progress);
    const double began = sg4::Engine::get_clock();
    double remaining      = 0;
    const bool done       = wait_activity(sg4::this_actor::exec_async(flops), down, &remaining);
    const double computed = flops - remaining;
    totals_.executed_flops += computed;
    state.busy_s += sg4::Engine::get_clock() - began;
    totals_.busy_s += sg4::Engine::get_clock() - began;
    if (!done)
      return false;
    progress += flops;
    if (progress < t.flops && setup_.checkpointing.store() != CheckpointStore::None &&
        !write_checkpoint(w, task, progress, down))
      return false;
  }
  if (!transfer(state.host, setup_.master, t.output_B, down))
    return false;
  record.end_s  = sg4::Engine::get_clock();
  record.worker = static_cast<long>(w);
  totals_.useful_flops += t.flops;
  return true;
}

void MasterWorker::go_down(size_t w, long lost_task)
{
  WorkerState& state = workers_[w];
  const Outage o     = state.outage;
  state.alive        = false;
  state.running      = -1;
  state.failures += 1;
  const double noticed = o.down_s + setup_.failure_timeout_s;
  post({Message::Kind::Failed, w, lost_task, noticed});
  // It rejoins once it is up again and the master has noticed the failure.
  const double rejoin = std::max(o.up_s, noticed);
  {
    std::unique_lock lock(*state.mutex);
    while (!finished_ && sg4::Engine::get_clock() < rejoin)
      state.wake->wait_until(lock, rejoin);
  }
  state.down_s += std::min(sg4::Engine::get_clock(), o.up_s) - o.down_s;
  state.alive = true;
  if (finished_)
    return;
  const Outage next = setup_.availability.next_outage(w, o.up_s - start_s_, state.rng);
  state.outage      = {start_s_ + next.down_s, start_s_ + next.up_s};
  post({Message::Kind::Back, w, -1, rejoin});
}

void MasterWorker::worker_loop(size_t w)
{
  WorkerState& state = workers_[w];
  while (true) {
    {
      std::unique_lock lock(*state.mutex);
      while (!finished_ && (!state.up_for_master || state.queue.empty()) &&
             sg4::Engine::get_clock() < state.outage.down_s) {
        if (std::isinf(state.outage.down_s))
          state.wake->wait(lock);
        else
          state.wake->wait_until(lock, state.outage.down_s);
      }
    }
    if (finished_)
      return;
    if (sg4::Engine::get_clock() >= state.outage.down_s) {
      go_down(w, -1);
      continue;
    }
    const size_t task = state.queue.front();
    state.queue.pop_front();
    state.queued_etc_s = std::max(0.0, state.queued_etc_s - etc(task, state));
    state.running      = static_cast<long>(task);
    state.running_end_estimate_s = sg4::Engine::get_clock() + etc(task, state);
    if (!run_task(w, task)) {
      go_down(w, static_cast<long>(task));
      continue;
    }
    state.running = -1;
    state.completed += 1;
    if (state.queue.empty())
      state.free_since_s = sg4::Engine::get_clock();
    post({Message::Kind::Done, w, static_cast<long>(task), sg4::Engine::get_clock()});
  }
}

}  // namespace llsim
