#include "sim/mw/master_worker.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/sg/activities.hpp"
#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/wait_point.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

XBT_LOG_EXTERNAL_CATEGORY(llsim_mw);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_mw_master_worker, llsim_mw,
                                "scheduling events, assignments, task starts and restarts, failures");

namespace llsim {

namespace {

// For logs: where a worker on `host` would read the task's input from (judged on the first
// part, as the schedulers do).
const char* input_source(const Task& t, HostId host)
{
  if (t.inputs.empty())
    return "input from the master";
  for (const TaskInput& c : t.inputs.front().copies)
    if (c.host == host)
      return "holds its input";
  return "input over the network";
}

}  // namespace

WorkCounter tracking_row_limit(const std::string& period_at)
{
  return {kMostTrackingRows, period_at, "a row per worker every period: a longer period or fewer workers fit"};
}

MasterWorker::MasterWorker(MasterWorkerSetup setup, std::vector<Task> tasks)
    : setup_(std::move(setup))
    , tasks_(std::move(tasks))
    , records_(tasks_.size())
    , stalls_(tasks_.size(), setup_.give_up_after)
    , io_({setup_.platform, setup_.master, setup_.checkpointing, setup_.data, setup_.scratch}, tasks_, totals_)
{
  for (int64_t w = 0; w < setup_.workers.count; ++w) {
    WorkerState state;
    state.host  = setup_.workers.host(w);
    state.speed = setup_.platform.speed(state.host);
    workers_.push_back(std::move(state));
  }
  tracking_.header      = {"time_s", "queued", "running", "done", "workers_up"};
  worker_states_.header = {"time_s", "worker", "state"};
}

MasterWorker::~MasterWorker() = default;

double MasterWorker::etc(size_t task, const WorkerState& w) const
{
  const Task& t = tasks_[task];
  double in_B   = t.inputs.empty() ? t.input_B : 0;
  for (const TaskInputPart& part : t.inputs)
    if (std::none_of(part.copies.begin(), part.copies.end(), [&w](const TaskInput& c) { return c.host == w.host; }))
      in_B += part.bytes;
  return t.flops / w.speed + (in_B + t.output_B) / setup_.workers.nic_Bps;
}

void MasterWorker::post(Message m)
{
  inbox_.push_back(m);
  master_wake_->notify_all();
}

void MasterWorker::run()
{
  start_s_     = now();
  master_wake_ = std::make_unique<WaitPoint>();
  std::vector<Actor> actors;
  for (size_t w = 0; w < workers_.size(); ++w) {
    WorkerState& state = workers_[w];
    state.wake         = std::make_unique<WaitPoint>();
    state.outage       = setup_.faults.outage_at(state.host, start_s_);
    state.free_since_s = start_s_;
    actors.push_back(start_actor(setup_.platform, state.host, "worker:" + setup_.platform.name(state.host),
                                 setup_.label, [this, w] { worker_loop(w); }));
  }
  master_loop();
  finished_ = true;
  for (auto& w : workers_)
    w.wake->notify_all();
  for (auto& a : actors)
    a.join();
  if (!stalled_.empty())
    throw SimulationError(stalled_);
  totals_.makespan_s = now() - start_s_;
}

void MasterWorker::handle(const Message& m)
{
  WorkerState& w = workers_[m.worker];
  switch (m.kind) {
  case Message::Kind::Done:
    ++done_;
    break;
  case Message::Kind::Failed:
    XBT_DEBUG("notices that %s failed: %s%s and %zu queued back among the unassigned",
              setup_.platform.name(w.host).c_str(), m.task >= 0 ? "task " : "no task running",
              m.task >= 0 ? tasks_[static_cast<size_t>(m.task)].id.c_str() : "", w.queue.size());
    w.up_for_master = false;
    if (m.task >= 0)
      unassigned_.insert(static_cast<size_t>(m.task));
    for (const size_t task : w.queue)
      if (stalls_.bounced(task) && stalled_.empty())
        stalled_ = stall_error(m.worker, task, (tasks_[task].flops - io_.saved(task).progress_flops) / w.speed,
                               checkpoint_compute_s());
    unassigned_.insert(w.queue.begin(), w.queue.end());
    w.queue.clear();
    w.queued_etc_s = 0;
    break;
  case Message::Kind::Back:
    XBT_DEBUG("%s is back", setup_.platform.name(w.host).c_str());
    w.up_for_master = true;
    w.free_since_s  = m.visible_s;
    w.wake->notify_all();
    break;
  }
}

size_t MasterWorker::schedule(double now)
{
  std::vector<size_t> candidates;
  std::vector<SchedWorker> view;
  const bool late = setup_.scheduler.binds_late();
  for (size_t i = 0; i < workers_.size(); ++i) {
    const WorkerState& w = workers_[i];
    const bool free      = w.running < 0 && w.queue.empty();
    if (!w.up_for_master || (late && !free))
      continue;
    const double busy_until = w.running >= 0 ? std::max(now, w.running_end_estimate_s) : now;
    candidates.push_back(i);
    view.push_back({w.speed, setup_.workers.nic_Bps, busy_until + w.queued_etc_s, w.free_since_s, free, w.host});
  }
  if (view.empty())
    return 0;
  std::vector<size_t> window;
  std::vector<SchedTask> batch;
  for (size_t t : unassigned_) {
    if (window.size() == setup_.scheduler.window())
      break;
    window.push_back(t);
    // Locality is judged on the first part (a task reading one partition).
    std::vector<HostId> hosts;
    if (!tasks_[t].inputs.empty() && tasks_[t].near_input)
      for (const TaskInput& c : tasks_[t].inputs.front().copies)
        hosts.push_back(c.host);
    batch.push_back({tasks_[t].flops, tasks_[t].input_B, tasks_[t].output_B, std::move(hosts)});
  }
  const std::vector<Assignment> assignments = setup_.scheduler.schedule(batch, view, now);
  for (const Assignment& a : assignments) {
    const size_t task = window[a.task];
    WorkerState& w    = workers_[candidates[a.worker]];
    unassigned_.erase(task);
    w.queue.push_back(task);
    w.queued_etc_s += etc(task, w);
    XBT_DEBUG("task %s -> %s: ETC %g s, expected done at %g s (%s)", tasks_[task].id.c_str(),
              setup_.platform.name(w.host).c_str(), etc(task, w),
              std::max(now, w.running >= 0 ? w.running_end_estimate_s : now) + w.queued_etc_s,
              input_source(tasks_[task], w.host));
    w.wake->notify_all();
  }
  XBT_DEBUG("scheduling event: %zu of %zu unassigned tasks assigned (window %zu) over %zu workers seen",
            assignments.size(), unassigned_.size() + assignments.size(), setup_.scheduler.window(), view.size());
  return assignments.size();
}

void MasterWorker::record_tracking(double now)
{
  if (setup_.tracking_rows)
    setup_.tracking_rows->add(static_cast<double>(workers_.size() + 1), now);
  size_t queued = unassigned_.size(), running = 0, up = 0;
  const std::string time = format_number(now);
  for (const auto& w : workers_) {
    queued += w.queue.size();
    running += w.running >= 0 ? 1 : 0;
    up += w.alive ? 1 : 0;
    worker_states_.rows.push_back({time, setup_.platform.name(w.host),
                                   !w.alive         ? "down"
                                   : w.running >= 0 ? "busy"
                                                    : "idle"});
  }
  tracking_.add_numbers({now, static_cast<double>(queued), static_cast<double>(running), static_cast<double>(done_),
                         static_cast<double>(up)});
}

void MasterWorker::master_loop()
{
  constexpr double kNever = std::numeric_limits<double>::infinity();
  size_t next_arrival     = 0;
  double last_event_s     = -kNever;
  double next_tracking_s  = start_s_;
  bool pending            = false;  // something happened that may allow new assignments
  while (true) {
    const double now = llsim::now();
    while (next_arrival < tasks_.size() && start_s_ + tasks_[next_arrival].submit_s <= now) {
      unassigned_.insert(next_arrival++);
      pending = true;
    }
    // Messages visible now, in the order they became visible.
    std::stable_sort(inbox_.begin(), inbox_.end(),
                     [](const Message& a, const Message& b) { return a.visible_s < b.visible_s; });
    size_t handled = 0;
    while (handled < inbox_.size() && inbox_[handled].visible_s <= now)
      handle(inbox_[handled++]);
    inbox_.erase(inbox_.begin(), inbox_.begin() + static_cast<long>(handled));
    pending = pending || handled > 0;
    if (!stalled_.empty())
      return;

    if (now >= next_tracking_s) {
      record_tracking(now);
      next_tracking_s = now + setup_.tracking_period_s;
    }
    if (done_ == tasks_.size()) {
      record_tracking(now);
      return;
    }
    const bool may_schedule = now >= last_event_s + setup_.scheduler.period_s();
    if (pending && may_schedule && !unassigned_.empty()) {
      // A window at a time: while an event assigns tasks and others remain, another follows
      // (after `period`).
      const size_t assigned = schedule(now);
      last_event_s          = now;
      pending               = assigned > 0 && !unassigned_.empty();
    }

    double wake_at = next_tracking_s;
    if (next_arrival < tasks_.size())
      wake_at = std::min(wake_at, start_s_ + tasks_[next_arrival].submit_s);
    for (const auto& m : inbox_)
      wake_at = std::min(wake_at, m.visible_s);
    if (pending && !unassigned_.empty())
      wake_at = std::min(wake_at, last_event_s + setup_.scheduler.period_s());
    const size_t seen = inbox_.size();
    master_wake_->wait_until([this, seen] { return inbox_.size() != seen; }, wake_at);
  }
}

CsvWriter MasterWorker::worker_table() const
{
  CsvWriter table;
  table.header = {"worker", "speed_flops", "tasks_completed", "busy_s", "down_s", "failures"};
  for (const auto& w : workers_)
    table.rows.push_back({setup_.platform.name(w.host), format_number(w.speed), std::to_string(w.completed),
                          format_number(w.busy_s), format_number(w.down_s), std::to_string(w.failures)});
  return table;
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

  if (!io_.read_input(workers_[w].host, task, down))
    return false;
  double progress = 0;
  if (setup_.checkpointing.can_resume(io_.saved(task), w)) {
    if (!io_.read_checkpoint(workers_[w].host, task, down))
      return false;
    progress                 = io_.saved(task).progress_flops;
    state.attempt_from_flops = progress;
  }
  XBT_DEBUG("task %s, attempt %d: starts at %g of %g flops%s", t.id.c_str(), record.attempts, progress, t.flops,
            record.attempts == 1 ? ""
            : progress > 0       ? " (re-executed from its checkpoint)"
                                 : " (re-executed from scratch)");
  const double interval = setup_.checkpointing.interval_s();
  const double segment  = std::isinf(interval) ? t.flops : interval * state.speed;
  if (setup_.checkpointing.store() != CheckpointStore::None) {
    const double compute_s = (t.flops - progress) / state.speed;
    stop_excess_work(setup_.checkpoint_at, std::ceil((t.flops - progress) / segment) - 1, kMostTaskCheckpoints,
                     "task " + t.id + ": " + readable_duration(compute_s) + " of compute on worker " +
                         setup_.platform.name(state.host) + ", a checkpoint every " + readable_duration(interval),
                     "an interval of at least " + readable_duration(rounded_up(compute_s / kMostTaskCheckpoints.most)) +
                         " fits this task");
  }
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
        !io_.write_checkpoint(workers_[w].host, task, static_cast<long>(w), progress, down))
      return false;
  }
  if (t.spill_B > 0 && !io_.spill(workers_[w].host, t.spill_B, down))
    return false;
  if (!io_.write_output(workers_[w].host, task, records_[task], down))
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
                      {io_.saved(task).progress_flops, now() - state.attempt_start_s, std::min(to_end_s, checkpoint)}))
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
