// One server's FIFO of requests and its pool of `threads` service threads (daemon actors on the
// server's host): a request waits in the queue until a thread is free, then its `serve` runs in
// that thread and may block (network, disk, sleeping for a service time). This is what bounds
// the work a server does at once, as a real server's thread pool does, and what keeps SimGrid's
// cost low: a server never has more than `threads` activities in progress.
//
// Host faults: while the server's host is down nothing is served. At the moment it fails, and
// while it stays down, a request with an `on_down` gets it called (the client sees the failure);
// a request without one stays queued until the host is back (a client that waits for the server).
// Work in progress when the host fails is stopped by its deadline (deadline()).
//
// SimGrid 3.32 keeps every disk I/O in its issuing actor's activity list until the actor ends,
// and each communication the actor waits for scans that list. A thread therefore hands over to a
// fresh actor after kRequestsPerThread requests, which bounds both the memory and the scans.
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/sg/wait_ledger.hpp"
#include "sim/svc/server_stats.hpp"

#include <deque>
#include <functional>
#include <memory>
#include <string>

namespace llsim {

class HostFaults;
class Platform;
class WaitPoint;

class ServerPool {
 public:
  struct Request {
    std::function<void()> serve;    // runs in a service thread; may block
    std::function<void()> on_down;  // the host is or went down before serving it (null: wait for it)
    double arrives_s = 0;           // a request still on its way is taken, then waited for, not served
    int phase        = kNoPhase;    // set by submit(): whose work it is (sim/sg/wait_ledger.hpp)
    double queued_s  = 0;           // set by submit()
  };

  // `stats` gets the queue; and the busy threads unless `threads_are_units` is false (a storage
  // server's units are its disks).
  ServerPool(const Platform& platform, HostFaults& faults, HostId host, size_t threads, std::string label,
             ServerStats& stats, bool threads_are_units = true);
  ~ServerPool();
  void start();  // spawns the threads (before or inside the simulation)
  // Queues a request. The first one starts following the host's outages.
  void submit(Request r);
  // The name its queue's waits are charged under (sim/sg/wait_ledger.hpp); default "<label> threads".
  void set_resource(const std::string& resource) { resource_ = wait_resource(resource); }
  // Called at each failure of the host from the first request on (what the server loses).
  void set_on_failure(std::function<void()> f) { on_failure_ = std::move(f); }

  HostId host() const { return host_; }
  size_t queued() const { return queue_.size(); }
  // For work in progress on this server: when its host next fails (+inf: never).
  double deadline() const;
  ServerStats& stats() { return stats_; }

  static constexpr size_t kRequestsPerThread = 1000;

 private:
  void start_watching();
  void thread_loop(size_t served);
  void watch_faults();
  void spawn_thread(size_t served);

  const Platform& platform_;
  HostFaults& faults_;
  HostId host_;
  size_t threads_;
  std::string label_;
  WaitResource resource_;
  ServerStats& stats_;
  bool threads_are_units_;
  std::deque<Request> queue_;
  bool watching_ = false;
  bool down_     = false;
  std::unique_ptr<WaitPoint> work_;  // threads wait here for requests
  std::function<void()> on_failure_;
};

}  // namespace llsim
