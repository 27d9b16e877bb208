#include "sim/svc/disk_worker.hpp"

#include "sim/faults/host_faults.hpp"
#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/wait_point.hpp"

#include <algorithm>
#include <limits>

namespace llsim {

DiskWorker::DiskWorker(const Platform& platform, HostFaults& faults, HostId host, const DiskSpec& disk,
                       std::string label, ServerStats& stats, const std::string& resource)
    : platform_(platform)
    , faults_(faults)
    , host_(host)
    , disk_(disk)
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
  // Each idle actor takes one job: start one more while jobs (this one included) outnumber them
  // and the disk has room (a disk nobody uses costs no actor). Started before the job is queued:
  // SimGrid runs a new actor at once, so it waits for the job as an idle one would.
  if (queue_.size() + 1 > static_cast<size_t>(idle_servers_) && servers_ < disk_.parallelism) {
    ++servers_;
    start_daemon(platform_, host_, "disk:" + platform_.name(host_), label_, [this] { serve(); });
  }
  job.phase    = phase_tag();
  job.queued_s = now();
  queue_.push_back(std::move(job));
  stats_.queue_changed(now(), 1);
  work_->notify_one();
}

double DiskWorker::service_time(const Job& job)
{
  const bool write        = job.op == IoOp::Write;
  const double transfer_s = job.bytes / (write ? disk_.write_Bps : disk_.read_Bps);
  const double iops       = write ? disk_.write_iops : disk_.read_iops;
  double start_wait_s     = 0;
  if (iops > 0) {
    start_wait_s  = std::max(0.0, next_start_s_ - now());
    next_start_s_ = now() + start_wait_s + 1 / iops;
  }
  if (disk_.parallelism == 1)  // nothing else is in flight: the media is free
    return start_wait_s + disk_.latency_s + transfer_s;
  const double access_end   = now() + start_wait_s + disk_.latency_s;
  const double media_wait_s = std::max(0.0, media_free_s_ - access_end);
  media_free_s_             = access_end + media_wait_s + transfer_s;
  return start_wait_s + disk_.latency_s + media_wait_s + transfer_s;
}

void DiskWorker::serve()
{
  while (true) {
    ++idle_servers_;
    work_->wait_until([this] { return !queue_.empty(); }, std::numeric_limits<double>::infinity());
    --idle_servers_;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    stats_.queue_changed(now(), -1);
    if (in_service_++ == 0)
      stats_.busy_changed(now(), 1);
    set_phase_tag(job.phase);
    charge_wait(queue_resource_, now() - job.queued_s);
    if (job.started)
      job.started();
    const double began = now();
    const bool ok      = !faults_.is_down(host_, now()) && pause(service_time(job), faults_.next_failure(host_, now()));
    if (!ok) {  // the server went down: what the drive had booked ahead is gone with its requests
      next_start_s_ = std::min(next_start_s_, now());
      media_free_s_ = std::min(media_free_s_, now());
    }
    charge_wait(disk_resource_, now() - began);
    if (--in_service_ == 0)
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
