// One disk (a storage target) serving one request at a time, in arrival order: a large
// sequential read or write keeps a disk busy, so a second one waits rather than sharing it.
// This is what lets a server's threads pipeline, one pulling a request's bytes over the network
// while another writes the previous one; with the disk shared evenly, requests that started
// together would also finish together and leave it idle while the next ones arrive.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>

namespace llsim {

class WaitPoint;

class DiskQueue {
 public:
  DiskQueue();
  ~DiskQueue();
  // Waits for the disk (behind the earlier arrivals); false if `deadline` passes first.
  bool acquire(double deadline);
  void release();

 private:
  std::deque<uint64_t> waiting_;
  uint64_t next_ticket_ = 0;
  bool busy_            = false;
  std::unique_ptr<WaitPoint> changed_;
};

}  // namespace llsim
