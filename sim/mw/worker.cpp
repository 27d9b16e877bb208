// The worker side of the master-worker runtime (see master_worker.hpp).
#include "sim/mw/master_worker.hpp"

#include "sim/core/errors.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/sg/activities.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/wait_point.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

XBT_LOG_EXTERNAL_CATEGORY(llsim_mw);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_mw_worker, llsim_mw,
                                "task starts and restarts, input copies read, checkpoints, failures");

namespace llsim {

bool MasterWorker::transfer(HostId from, HostId to, double bytes, double deadline)
{
  if (!llsim::transfer(setup_.platform, from, to, bytes, deadline))
    return false;
  if (bytes >= 1)
    totals_.bytes_transferred += bytes;
  return true;
}

bool MasterWorker::write_checkpoint(size_t w, size_t task, double progress, double deadline)
{
  const TaskCheckpointing& policy = setup_.checkpointing;
  StorageService& storage         = *policy.storage();
  const HostId host               = workers_[w].host;
  const bool local                = policy.store() == CheckpointStore::WorkerDisk;
  FileId file                     = 0;
  if (local)
    file = storage.new_local_file(storage.server_index(host));
  else if (!storage.create(host, "/checkpoints/task" + std::to_string(task), -1, deadline, &file))
    return false;
  const IoOutcome written = storage.write(host, file, 0, policy.size_B(), deadline);
  if (written.status == IoStatus::NoSpace)
    throw SimulationError(written.message);
  if (!written.ok()) {
    storage.remove(file);
    return false;
  }
  // The new checkpoint replaces the task's previous one.
  if (saved_[task].worker >= 0)
    storage.remove(saved_file_[task]);
  XBT_DEBUG("task %s: checkpoint at %g of %g flops (%g B) %s", tasks_[task].id.c_str(), progress, tasks_[task].flops,
            policy.size_B(), local ? "on its own disks" : "on shared storage");
  saved_file_[task] = file;
  saved_[task]      = {progress, static_cast<long>(w)};
  totals_.checkpoint_bytes += policy.size_B();
  if (!local)
    totals_.bytes_transferred += policy.size_B();
  return true;
}

bool MasterWorker::read_checkpoint(size_t w, size_t task, double deadline)
{
  const TaskCheckpointing& policy = setup_.checkpointing;
  if (!policy.storage()->read(workers_[w].host, saved_file_[task], 0, policy.size_B(), deadline).ok())
    return false;
  if (policy.store() != CheckpointStore::WorkerDisk)
    totals_.bytes_transferred += policy.size_B();
  return true;
}

bool MasterWorker::read_input(size_t w, size_t task, double deadline)
{
  const Task& t     = tasks_[task];
  const HostId host = workers_[w].host;
  if (t.inputs.empty())
    return transfer(setup_.master, host, t.input_B, deadline);
  for (const TaskInputPart& part : t.inputs) {
    // Its own copy, unless it prefers another host's and there is one; else the first other one.
    const TaskInput* own   = nullptr;
    const TaskInput* other = nullptr;
    for (const TaskInput& c : part.copies) {
      if (c.host == host && !own)
        own = &c;
      if (c.host != host && !other)
        other = &c;
    }
    const TaskInput& copy = own && !(t.prefer_remote && other) ? *own : other ? *other : *own;
    StorageService& from  = part.scratch ? *setup_.scratch : *setup_.data;
    XBT_DEBUG("task %s reads %g B of input from %s (%s copy of %zu)", t.id.c_str(), part.bytes,
              setup_.platform.name(copy.host).c_str(), copy.host == host ? "its own" : "a remote", part.copies.size());
    if (!from.read(host, copy.file, 0, part.bytes, deadline).ok())
      return false;
    const bool local = copy.host == host;
    if (part.scratch)
      totals_.scratch_read_remote += local ? 0 : part.bytes;
    else
      (local ? totals_.bytes_read_local : totals_.bytes_read_remote) += part.bytes;
  }
  return true;
}

bool MasterWorker::write_output(size_t w, size_t task, double deadline)
{
  const Task& t     = tasks_[task];
  const HostId host = workers_[w].host;
  if (t.output == TaskOutput::Master)
    return transfer(host, setup_.master, t.output_B, deadline);
  StorageService& to = t.output == TaskOutput::LocalDisk ? *setup_.scratch : *setup_.data;
  // A worker that is a server of the service writes on its own disks (HDFS's first replica).
  const bool own    = to.servers().contains(host);
  const FileId file = own ? to.new_local_file(to.server_index(host)) : to.new_file();
  const IoOutcome o = to.write(host, file, 0, t.output_B, deadline);
  if (o.status == IoStatus::NoSpace)
    throw SimulationError(o.message);
  if (!o.ok()) {
    to.remove(file);
    return false;
  }
  records_[task].output_file = file;
  if (!own)
    totals_.bytes_written_remote += t.output_B;
  // Further copies go to the next servers, over the network (a replication pipeline).
  const size_t servers = static_cast<size_t>(to.servers().count);
  const size_t first   = own ? to.server_index(host) : 0;
  for (int k = 1; k < t.output_copies; ++k) {
    const size_t server = (first + static_cast<size_t>(k)) % servers;
    const FileId copy   = to.new_local_file(server);
    const IoOutcome c   = to.write(host, copy, 0, t.output_B, deadline);
    if (c.status == IoStatus::NoSpace)
      throw SimulationError(c.message);
    if (!c.ok())
      return false;
    if (to.servers().host(static_cast<int64_t>(server)) != host)
      totals_.bytes_written_remote += t.output_B;
  }
  return true;
}

bool MasterWorker::spill(size_t w, double bytes, double deadline)
{
  StorageService& disks = *setup_.scratch;
  const HostId host     = workers_[w].host;
  const FileId file     = disks.new_local_file(disks.server_index(host));
  const IoOutcome o     = disks.write(host, file, 0, bytes, deadline);
  if (o.status == IoStatus::NoSpace)
    throw SimulationError(o.message);
  const bool ok = o.ok() && disks.read(host, file, 0, bytes, deadline).ok();
  disks.remove(file);
  if (ok)
    totals_.spill_bytes += bytes;
  return ok;
}

bool MasterWorker::run_task(size_t w, size_t task)
{
  WorkerState& state = workers_[w];
  const Task& t      = tasks_[task];
  const double down  = state.outage.down_s;
  TaskRecord& record = records_[task];
  record.attempts += 1;
  if (record.start_s < 0)
    record.start_s = now();
  state.attempt_start_s    = now();
  state.attempt_from_flops = 0;

  if (!read_input(w, task, down))
    return false;
  double progress = 0;
  if (setup_.checkpointing.can_resume(saved_[task], w)) {
    if (!read_checkpoint(w, task, down))
      return false;
    progress                 = saved_[task].progress_flops;
    state.attempt_from_flops = progress;
  }
  XBT_DEBUG("task %s, attempt %d: starts at %g of %g flops%s", t.id.c_str(), record.attempts, progress, t.flops,
            record.attempts == 1 ? ""
            : progress > 0       ? " (re-executed from its checkpoint)"
                                 : " (re-executed from scratch)");
  const double interval = setup_.checkpointing.interval_s();
  const double segment  = std::isinf(interval) ? t.flops : interval * state.speed;
  while (progress < t.flops) {
    const double flops    = std::min(segment, t.flops - progress);
    const double began    = now();
    double remaining      = 0;
    const bool done       = compute(flops, down, &remaining);
    const double computed = flops - remaining;
    totals_.executed_flops += computed;
    state.busy_s += now() - began;
    totals_.busy_s += now() - began;
    if (!done)
      return false;
    progress += flops;
    if (progress < t.flops && setup_.checkpointing.store() != CheckpointStore::None &&
        !write_checkpoint(w, task, progress, down))
      return false;
  }
  if (t.spill_B > 0 && !spill(w, t.spill_B, down))
    return false;
  if (!write_output(w, task, down))
    return false;
  record.end_s  = now();
  record.worker = static_cast<long>(w);
  totals_.useful_flops += t.flops;
  return true;
}

std::string MasterWorker::stall_error(size_t w, size_t task, double needed_s, double checkpoint_s) const
{
  const Task& t = tasks_[task];
  StallFigures f;
  f.task         = t.id;
  f.attempts     = records_[task].attempts + stalls_.stall(task).bounces;
  f.stall        = stalls_.stall(task);
  f.needed_s     = needed_s;
  f.flops        = t.flops;
  f.checkpoint_s = checkpoint_s;
  f.mtbf_s       = setup_.faults.mtbf_s(workers_[w].host);
  return stall_message(f);
}

double MasterWorker::checkpoint_compute_s() const
{
  return setup_.checkpointing.store() == CheckpointStore::None ? std::numeric_limits<double>::infinity()
                                                               : setup_.checkpointing.interval_s();
}

void MasterWorker::give_up_if_stalled(size_t w, size_t task)
{
  const WorkerState& state = workers_[w];
  const Task& t            = tasks_[task];
  const double to_end_s    = (t.flops - state.attempt_from_flops) / state.speed;
  const double checkpoint  = checkpoint_compute_s();
  if (!stalls_.failed(task,
                      {saved_[task].progress_flops, now() - state.attempt_start_s, std::min(to_end_s, checkpoint)}))
    return;
  throw SimulationError(stall_error(w, task, to_end_s, checkpoint));
}

void MasterWorker::go_down(size_t w, long lost_task)
{
  WorkerState& state = workers_[w];
  const Outage o     = state.outage;
  state.alive        = false;
  state.running      = -1;
  state.failures += 1;
  const double noticed = o.down_s + setup_.failure_timeout_s;
  XBT_DEBUG("goes down until %g s, %s%s lost; the master notices at %g s", o.up_s, lost_task >= 0 ? "task " : "no task",
            lost_task >= 0 ? tasks_[static_cast<size_t>(lost_task)].id.c_str() : "", noticed);
  post({Message::Kind::Failed, w, lost_task, noticed});
  // It rejoins once it is up again and the master has noticed the failure.
  const double rejoin = std::max(o.up_s, noticed);
  state.wake->wait_until([this] { return finished_; }, rejoin);
  state.down_s += std::min(now(), o.up_s) - o.down_s;
  state.alive = true;
  if (finished_)
    return;
  // Outages that came and went while the master still thought it down are over: the one under
  // way now, or the next, is what it meets.
  state.outage = setup_.faults.outage_at(state.host, now());
  post({Message::Kind::Back, w, -1, rejoin});
}

void MasterWorker::worker_loop(size_t w)
{
  WorkerState& state = workers_[w];
  while (true) {
    state.wake->wait_until([this, &state] { return finished_ || (state.up_for_master && !state.queue.empty()); },
                           state.outage.down_s);
    if (finished_)
      return;
    if (now() >= state.outage.down_s) {
      go_down(w, -1);
      continue;
    }
    const size_t task = state.queue.front();
    state.queue.pop_front();
    state.queued_etc_s           = std::max(0.0, state.queued_etc_s - etc(task, state));
    state.running                = static_cast<long>(task);
    state.running_end_estimate_s = now() + etc(task, state);
    if (!run_task(w, task)) {
      give_up_if_stalled(w, task);
      go_down(w, static_cast<long>(task));
      continue;
    }
    state.running = -1;
    state.completed += 1;
    if (state.queue.empty())
      state.free_since_s = now();
    post({Message::Kind::Done, w, static_cast<long>(task), now()});
  }
}

}  // namespace llsim
