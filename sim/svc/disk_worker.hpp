// One disk (a storage target) serving requests in arrival order, on its own: daemon actors drain
// its FIFO of reads and writes, reporting its queue and whether it is busy to its server's
// statistics. No server thread waits for a disk, so one busy disk never holds back the others of
// its server. A job that meets its server down fails.
//
// A disk serves up to `parallelism` requests at once (DiskSpec, sim/platform/disk_spec.hpp): one
// actor per request in service, started as the queue needs them. A request
//   - starts no sooner than 1 / iops after the request started before it (read_iops, write_iops:
//     the drive's command rate);
//   - waits the disk's latency (its access), overlapped with the other requests' accesses;
//   - moves its bytes at the read or write bandwidth once the bytes of the requests before it
//     have moved: the media's bandwidth is shared one request after another.
// So many small requests are limited by parallelism / (latency + bytes / bandwidth) (Little's
// law) or by the IOPS, and large ones by the bandwidth. With parallelism 1 a request takes the
// latency plus its bytes / bandwidth, and the next waits for it: a hard disk. A request that
// fails (its server down) gives back what the drive had booked ahead.
//
// Each actor sleeps for its request's computed time rather than running a SimGrid disk
// activity, whose model revisits every running I/O at every event of the simulation.
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/sg/activities.hpp"
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

class DiskWorker {
 public:
  struct Job {
    IoOp op;
    double bytes;
    std::function<void()> started;      // optional; runs in the worker; must not block
    std::function<void(bool ok)> over;  // runs in the worker; must not block
    int phase       = kNoPhase;         // set by submit(): whose work it is (sim/sg/wait_ledger.hpp)
    double queued_s = 0;                // set by submit()
  };

  // `resource`: what its waits are charged under, "<resource> disk queue" and "<resource> disks".
  DiskWorker(const Platform& platform, HostFaults& faults, HostId host, const DiskSpec& disk, std::string label,
             ServerStats& stats, const std::string& resource);
  ~DiskWorker();
  void start();          // before the simulation runs
  void submit(Job job);  // the first one starts the worker's actor

 private:
  void serve();                         // one request in service at a time, for ever
  double service_time(const Job& job);  // from now until its bytes have moved

  const Platform& platform_;
  HostFaults& faults_;
  HostId host_;
  DiskSpec disk_;
  std::string label_;
  WaitResource queue_resource_, disk_resource_;
  ServerStats& stats_;
  std::deque<Job> queue_;
  std::unique_ptr<WaitPoint> work_;
  int64_t servers_ = 0, idle_servers_ = 0, in_service_ = 0;  // actors started, waiting, serving
  double next_start_s_ = 0;                                  // the IOPS limit's next free start
  double media_free_s_ = 0;                                  // when the bytes in flight have moved
};

// The room a target (one disk) has for written bytes not yet on it: its share of the server's
// write cache, handed out first come, first served, like a Lustre client's grant per OST. A
// write waits for room before its bytes move; a write larger than the whole share waits for the
// share to be empty. No actor waits here: `admitted` runs when the room is there (at once, or
// when give() frees it). Writes waiting for room count in the server's queue (`stats`, if any).
class TargetCredit {
 public:
  // A write's wait for room is charged to its phase under `resource` (its disk's queue: the room
  // is the backlog the disk has not written yet).
  explicit TargetCredit(double capacity_B, ServerStats* stats = nullptr, const std::string& resource = "")
      : capacity_B_(capacity_B)
      , stats_(stats)
      , resource_(wait_resource(resource))
  {}
  void take(double bytes, std::function<void()> admitted);
  void give(double bytes);

 private:
  bool fits(double bytes) const { return used_B_ <= 0 || used_B_ + bytes <= capacity_B_; }
  double capacity_B_, used_B_ = 0;
  ServerStats* stats_;
  WaitResource resource_;
  std::deque<std::pair<double, std::function<void()>>> waiting_;
};

}  // namespace llsim
