#include "sim/svc/disk_worker.hpp"

#include "sim/faults/host_faults.hpp"
#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/wait_point.hpp"

#include <limits>

namespace llsim {

DiskWorker::DiskWorker(const Platform& platform, HostFaults& faults, HostId host, const DiskSpec& disk,
                       std::string label, ServerStats& stats, const std::string& resource)
    : platform_(platform)
    , faults_(faults)
    , host_(host)
    , read_Bps_(disk.read_Bps)
    , write_Bps_(disk.write_Bps)
    , latency_s_(disk.latency_s)
    , label_(std::move(label))
    , queue_resource_(wait_resource(resource + " disk queue"))
    , disk_resource_(wait_resource(resource + " disks"))
    , stats_(stats)
{}

DiskWorker::~DiskWorker() = default;

void DiskWorker::start()
{
  work_ = std::make_unique<WaitPoint>();
}

void DiskWorker::submit(Job job)
{
  if (!started_) {
    started_ = true;  // first use: a disk nobody uses costs no actor
    start_daemon(platform_, host_, "disk:" + platform_.name(host_), label_, [this] { loop(); });
  }
  job.phase    = phase_tag();
  job.queued_s = now();
  queue_.push_back(std::move(job));
  stats_.queue_changed(now(), 1);
  work_->notify_one();
}

void DiskWorker::loop()
{
  while (true) {
    work_->wait_until([this] { return !queue_.empty(); }, std::numeric_limits<double>::infinity());
    Job job = std::move(queue_.front());
    queue_.pop_front();
    stats_.queue_changed(now(), -1);
    stats_.busy_changed(now(), 1);
    set_phase_tag(job.phase);
    charge_wait(queue_resource_, now() - job.queued_s);
    if (job.started)
      job.started();
    const double busy_s = latency_s_ + job.bytes / (job.op == IoOp::Write ? write_Bps_ : read_Bps_);
    const double began  = now();
    const bool ok       = !faults_.is_down(host_, now()) && pause(busy_s, faults_.next_failure(host_, now()));
    charge_wait(disk_resource_, now() - began);
    stats_.busy_changed(now(), -1);
    job.over(ok);
    set_phase_tag(kNoPhase);
  }
}

void TargetCredit::take(double bytes, std::function<void()> admitted)
{
  if (waiting_.empty() && fits(bytes)) {
    used_B_ += bytes;
    admitted();
    return;
  }
  // Waits for the disk's backlog: charged to the writer's phase when the room is there.
  admitted = [admitted = std::move(admitted), phase = phase_tag(), since = now(), this] {
    charge_wait_to(phase, resource_, now() - since);
    admitted();
  };
  waiting_.emplace_back(bytes, std::move(admitted));
  if (stats_)
    stats_->queue_changed(now(), 1);
}

void TargetCredit::give(double bytes)
{
  used_B_ -= bytes;
  while (!waiting_.empty() && fits(waiting_.front().first)) {
    auto [next, admitted] = std::move(waiting_.front());
    waiting_.pop_front();
    used_B_ += next;
    if (stats_)
      stats_->queue_changed(now(), -1);
    admitted();
  }
}

}  // namespace llsim
