#include "sim/svc/server_pool.hpp"

#include "sim/faults/host_faults.hpp"
#include "sim/sg/actors.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/wait_point.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

XBT_LOG_EXTERNAL_CATEGORY(llsim_svc);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_svc_server_pool, llsim_svc, "service thread pools and host faults");

namespace llsim {

ServerPool::ServerPool(const Platform& platform, HostFaults& faults, HostId host, size_t threads, std::string label,
                       ServerStats& stats, bool threads_are_units)
    : platform_(platform)
    , faults_(faults)
    , host_(host)
    , threads_(threads)
    , label_(std::move(label))
    , resource_(wait_resource(label_ + " threads"))
    , stats_(stats)
    , threads_are_units_(threads_are_units)
{}

ServerPool::~ServerPool() = default;

void ServerPool::start()
{
  work_ = std::make_unique<WaitPoint>();
  for (size_t t = 0; t < threads_; ++t)
    spawn_thread(0);
}

void ServerPool::start_watching()
{
  // Outages matter from the first request on: a server nobody uses follows no outages (4,096
  // volunteers' idle scratch disks would otherwise wake a watcher at every one of theirs).
  watching_ = true;
  down_     = faults_.is_down(host_, now());
  if (faults_.may_fail(host_))
    start_daemon(platform_, host_, "faults:" + platform_.name(host_), label_, [this] { watch_faults(); });
}

void ServerPool::spawn_thread(size_t served)
{
  start_daemon(platform_, host_, "thread:" + platform_.name(host_), label_, [this, served] { thread_loop(served); });
}

double ServerPool::deadline() const
{
  return faults_.next_failure(host_, now());
}

void ServerPool::submit(Request r)
{
  if (!watching_)
    start_watching();
  if (down_ && r.on_down) {
    XBT_DEBUG("%s is down: request refused", platform_.name(host_).c_str());
    r.on_down();
    return;
  }
  r.phase    = phase_tag();
  r.queued_s = now();
  queue_.push_back(std::move(r));
  stats_.queue_changed(now(), 1);
  work_->notify_one();
}

void ServerPool::thread_loop(size_t served)
{
  while (true) {
    work_->wait_until([this] { return !down_ && !queue_.empty(); }, std::numeric_limits<double>::infinity());
    Request r = std::move(queue_.front());
    queue_.pop_front();
    stats_.queue_changed(now(), -1);
    sleep_until(r.arrives_s);  // (requests queue in arrival order: the next one is no earlier)
    set_phase_tag(r.phase);    // the thread works for the request's phase until it is served
    charge_wait(resource_, now() - std::max(r.queued_s, r.arrives_s));
    if (threads_are_units_)
      stats_.busy_changed(now(), 1);
    r.serve();
    if (threads_are_units_)
      stats_.busy_changed(now(), -1);
    set_phase_tag(kNoPhase);
    if (++served == kRequestsPerThread) {
      spawn_thread(0);
      return;
    }
  }
}

void ServerPool::watch_faults()
{
  while (true) {
    const Outage o = faults_.outage_at(host_, now());
    if (std::isinf(o.down_s))
      return;
    sleep_until(o.down_s);
    XBT_DEBUG("%s goes down until %g s", platform_.name(host_).c_str(), o.up_s);
    down_ = true;
    std::deque<Request> queued;
    queued.swap(queue_);
    for (auto& r : queued)
      if (!r.on_down)
        queue_.push_back(std::move(r));
    stats_.queue_changed(now(), static_cast<long>(queue_.size()) - static_cast<long>(queued.size()));
    for (auto& r : queued)
      if (r.on_down)
        r.on_down();
    if (on_failure_)
      on_failure_();
    sleep_until(o.up_s);
    XBT_DEBUG("%s is back up", platform_.name(host_).c_str());
    down_ = false;
    work_->notify_all();
  }
}

}  // namespace llsim
