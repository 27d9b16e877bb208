// The page cache of a storage service's client hosts: the byte ranges of files a host read or
// wrote, up to `capacity_B` per host, as the Linux page cache keeps a file system's pages.
// - A read asks which of its bytes are missing; only those go to the servers.
// - What a host read or wrote joins its cache, its file becoming the most recently used; when a
//   host's cache is over its capacity, its least recently used files leave it, whole. A range
//   larger than the capacity is not kept.
// - A read of bytes another read of the same host is fetching waits for that read rather than
//   asking the servers again (a page under I/O is locked, and its second reader waits for it).
// - A write makes every other host's copy of the file stale (it leaves their caches), as NFS's
//   close-to-open consistency and Lustre's locks do; removing a file forgets it everywhere. A
//   read in flight of a file written or removed meanwhile keeps nothing.
// - A host that went down lost its memory: the service drops its cache (drop_host).
// - Sub-byte slivers (ranges computed in floating point that miss each other by rounding) count
//   as held: no request is sent for less than a byte.
// Pure logic, no simulated time: a hit is taken to cost nothing (a memory copy, some 10 GB/s per
// thread, against the storage's milliseconds).
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/svc/files/stored_files.hpp"

#include <cstdint>
#include <list>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace llsim {

class ClientPageCache {
 public:
  explicit ClientPageCache(double capacity_B)
      : capacity_B_(capacity_B)
  {}
  bool enabled() const { return capacity_B_ > 0; }

  // The parts of [offset, offset + bytes) of the file that `host` does not hold, as
  // (offset, bytes) in order; the file becomes its most recently used.
  std::vector<std::pair<double, double>> missing(HostId host, FileId f, double offset, double bytes);
  // What read `id` of [offset, offset + bytes) asks the servers for (`gaps`: neither held nor
  // being read), and the reads in flight it waits for instead; its gaps are in flight from now.
  struct ReadPlan {
    std::vector<std::pair<double, double>> gaps;
    std::vector<uint64_t> awaited;
    uint64_t version = 0;  // of the file when planned
  };
  ReadPlan plan_read(HostId host, FileId f, double offset, double bytes, uint64_t id);
  // Read `id` (planned as `plan`) is over: its gaps are no longer in flight, and with `ok` its
  // range is kept, unless the file was written or removed since it was planned.
  void read_over(HostId host, FileId f, uint64_t id, const ReadPlan& plan, double offset, double bytes, bool ok);
  // [offset, offset + bytes) is now in `host`'s cache (read from or written to the servers).
  void keep(HostId host, FileId f, double offset, double bytes);
  void written(HostId host, FileId f, double offset, double bytes);  // keep(), and stale elsewhere
  void forget(FileId f);                                             // the file was removed
  void drop_host(HostId host);                                       // it went down
  double held_B(HostId host) const;

 private:
  struct HostCache {
    std::map<FileId, std::map<double, double>> ranges;  // per file: start -> end, disjoint
    std::list<FileId> recency;                          // most recently used first
    std::unordered_map<FileId, std::list<FileId>::iterator> place;
    std::unordered_map<FileId, double> file_B;
    struct InFlight {
      double start, end;
      uint64_t id;
    };
    std::unordered_map<FileId, std::vector<InFlight>> reading;
    double held_B = 0;
  };
  void touch(HostCache& c, FileId f);
  void drop(HostCache& c, FileId f);

  double capacity_B_;
  std::unordered_map<HostId, HostCache> hosts_;
  std::unordered_map<FileId, uint64_t> version_;  // bumped by each write and removal of the file
};

}  // namespace llsim
