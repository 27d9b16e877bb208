#include "sim/sg/activities.hpp"

#include "sim/sg/clock.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/traffic_ledger.hpp"
#include "sim/sg/wait_ledger.hpp"

#include <simgrid/Exception.hpp>
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <cmath>

namespace sg4 = simgrid::s4u;

namespace llsim {

namespace {

// A time this close to now counts as now: SimGrid 3.32 may answer a shorter timed wait without
// advancing its clock, and a loop waiting for that time would never see it.
bool reached(double t)
{
  return now() >= t - std::max(1e-9, std::abs(t) * 1e-15);
}

// Waits for `a` until `deadline`; false (after cancelling it) if the deadline came first.
bool wait_or_cancel(const sg4::ActivityPtr& a, double deadline, double* remaining = nullptr)
{
  if (std::isinf(deadline)) {
    a->wait();
    return true;
  }
  // SimGrid waits without a limit for a negative timeout and may return at once for a zero one,
  // leaving the activity running: a deadline already reached fails here.
  if (deadline <= now()) {
    if (remaining != nullptr)
      *remaining = a->get_remaining();
    a->cancel();
    return false;
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

bool sleep_before(double until, double deadline)
{
  if (until > deadline) {
    sleep_until(deadline);
    return false;
  }
  sleep_until(until);
  return true;
}

}  // namespace

bool transfer(const Platform& platform, HostId from, HostId to, double bytes, double deadline, double min_duration)
{
  const double start = now();
  if (from != to && bytes >= 1) {
    double remaining = 0;
    CountedFlows flow(platform.census());
    flow.add(from, to, start);
    const bool done =
        wait_or_cancel(sg4::Comm::sendto_async(platform.host(from), platform.host(to), static_cast<uint64_t>(bytes)),
                       deadline, &remaining);
    flow.end(0, std::floor(bytes) - remaining, now());
    charge_wait(flow.limit(), now() - start);
    count_traffic(platform, from, to, std::floor(bytes) - remaining);
    if (!done)
      return false;
  }
  const double moved               = now();
  const bool ok                    = sleep_before(start + min_duration, deadline);
  static const WaitResource client = wait_resource("client bandwidth");
  charge_wait(client, now() - moved);  // the sender could not go faster
  return ok;
}

bool transfer_all(const Platform& platform, const std::vector<Flow>& flows, double deadline)
{
  const double start = now();
  std::vector<sg4::CommPtr> comms;
  std::vector<const Flow*> sent;
  CountedFlows counted(platform.census());
  for (const Flow& f : flows)
    if (f.from != f.to && f.bytes >= 1) {
      comms.push_back(
          sg4::Comm::sendto_async(platform.host(f.from), platform.host(f.to), static_cast<uint64_t>(f.bytes)));
      sent.push_back(&f);
      counted.add(f.from, f.to, start);
    }
  counted.look_all();
  bool ok = true;
  for (size_t i = 0; i < comms.size(); ++i) {
    double remaining = 0;
    if (!ok) {
      remaining = comms[i]->get_remaining();  // before cancel(), which forgets it
      comms[i]->cancel();
    } else if (!wait_or_cancel(comms[i], deadline, &remaining))
      ok = false;
    counted.end(i, std::floor(sent[i]->bytes) - remaining, now());
    count_traffic(platform, sent[i]->from, sent[i]->to, std::floor(sent[i]->bytes) - remaining);
  }
  if (!comms.empty())
    charge_wait(counted.limit(), now() - start);
  return ok;
}

namespace {

bool relay_hops(const Platform& platform, HostId from, HostId via, HostId to, double bytes, double min_first_hop,
                double deadline, const std::function<void()>& first_hop_done, CountedFlows& counted)
{
  const double start      = now();
  const double first_free = start + min_first_hop;
  std::vector<sg4::CommPtr> hops;
  std::vector<int> which;  // 0: first hop, 1: second hop
  std::vector<size_t> counted_as;
  if (bytes >= 1 && from != via) {
    hops.push_back(sg4::Comm::sendto_async(platform.host(from), platform.host(via), static_cast<uint64_t>(bytes)));
    which.push_back(0);
    counted_as.push_back(counted.add(from, via, start));
  }
  if (bytes >= 1 && via != to) {
    hops.push_back(sg4::Comm::sendto_async(platform.host(via), platform.host(to), static_cast<uint64_t>(bytes)));
    which.push_back(1);
    counted_as.push_back(counted.add(via, to, start));
  }
  counted.look_all();
  const auto count = [&](size_t k, double remaining) {
    counted.end(counted_as[k], std::floor(bytes) - remaining, now());
    count_traffic(platform, which[k] == 0 ? from : via, which[k] == 0 ? via : to, std::floor(bytes) - remaining);
  };
  bool first_running = !which.empty() && which.front() == 0;
  bool first_told    = false;
  while (true) {
    if (!first_running && !first_told && reached(first_free)) {
      first_told = true;
      first_hop_done();
    }
    if (hops.empty() && first_told)
      return true;
    // The next thing to wait for: a hop, or the end of the first hop's minimum duration.
    const double wake = (!first_running && !first_told) ? std::min(first_free, deadline) : deadline;
    if (hops.empty()) {
      if (reached(deadline))
        return false;
      sleep_until(wake);
      continue;
    }
    // (A wait that is due now is answered by a test: SimGrid 3.32's timed waits are unreliable
    // at 0.)
    const ssize_t done = std::isinf(wake) ? sg4::Comm::wait_any(hops)
                         : reached(wake)  ? sg4::Comm::test_any(hops)
                                          : sg4::Comm::wait_any_for(hops, wake - now());
    if (done < 0) {
      if (reached(deadline)) {
        for (size_t k = 0; k < hops.size(); ++k) {
          count(k, hops[k]->get_remaining());
          hops[k]->cancel();
        }
        return false;
      }
      continue;
    }
    count(static_cast<size_t>(done), 0);
    if (which[static_cast<size_t>(done)] == 0)
      first_running = false;
    hops.erase(hops.begin() + done);
    which.erase(which.begin() + done);
    counted_as.erase(counted_as.begin() + done);
  }
}

}  // namespace

bool relay(const Platform& platform, HostId from, HostId via, HostId to, double bytes, double min_first_hop,
           double deadline, const std::function<void()>& first_hop_done)
{
  const double began = now();
  CountedFlows counted(platform.census());
  const bool ok = relay_hops(platform, from, via, to, bytes, min_first_hop, deadline, first_hop_done, counted);
  charge_wait(counted.limit(), now() - began);
  return ok;
}

bool pause(double duration, double deadline)
{
  return sleep_before(now() + duration, deadline);
}

bool compute(double flops, double deadline, double* remaining)
{
  if (flops <= 0)
    return true;
  const double start                  = now();
  const bool done                     = wait_or_cancel(sg4::this_actor::exec_async(flops), deadline, remaining);
  static const WaitResource computing = wait_resource("compute");
  charge_wait(computing, now() - start);
  return done;
}

}  // namespace llsim
