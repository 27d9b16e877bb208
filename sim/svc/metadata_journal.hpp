// The journal of one metadata server: every mutating operation appends a record to a log device,
// and its reply waits until the record is durable. Records are committed in groups (group
// commit): one device write carries every record that became ready while the previous write was
// under way, and takes the device's latency plus the group's bytes at its write bandwidth. So a
// slow log device (an HDD) adds its latency to every mutating operation and, once the server
// produces records faster than the device takes them, bounds the server's rate.
//
// Checkpoints: when `every` bytes have been journalled since the last one, a checkpoint reads
// that interval back from the log device (delaying commits behind it) and writes the blocks it
// changed to their home location, the server's disks (spread evenly over them, each block one
// I/O: latency + block / write bandwidth). The checkpoint model decides how many blocks that is
// (journal_checkpoint.hpp). The log holds two intervals: while a checkpoint is under way and the
// next interval is full, commits wait for it to end.
//
// Blocks: the records changing one directory fill its home blocks in order, block / record of
// them per block (an assumption: entries appended to a directory share blocks).
//
// Driven by the Timer: one event per group commit, none per record.
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

namespace llsim {

class JournalCheckpoint;
class Timer;

struct LogDevice {
  double read_Bps  = 0;
  double write_Bps = 0;
  double latency_s = 0;
};

struct JournalSpec {
  LogDevice log;
  double record_B = 512;
  double block_B  = 4096;
  double every_B  = 1e9;
  std::shared_ptr<const JournalCheckpoint> checkpoint;
  DiskSpec home;
};

class MetadataJournal {
 public:
  MetadataJournal(const JournalSpec& spec, Timer& timer);
  // A record of an operation served at `ready` (>= now) that changed directory `dir_key`,
  // standing for `scale` identical records; `durable(t)` runs when its group commit starts, with
  // the time t at which the record will be on the log device (it must not block).
  void append(double ready, uint64_t dir_key, double scale, std::function<void(double)> durable);

  double journal_bytes() const { return journal_B_; }
  double home_bytes() const { return home_B_; }
  double checkpoints() const { return checkpoints_; }

 private:
  struct Record {
    double ready;
    uint64_t order;
    uint64_t dir_key;
    double scale;
    std::function<void(double)> durable;
    bool operator>(const Record& o) const { return ready > o.ready || (ready == o.ready && order > o.order); }
  };
  void plan_commit(double t);  // a commit at `t`, unless one is planned earlier
  void commit(uint64_t plan);
  void note_blocks(const Record& r);
  void start_checkpoint(double t);

  JournalSpec spec_;
  Timer& timer_;
  std::priority_queue<Record, std::vector<Record>, std::greater<Record>> pending_;
  uint64_t order_ = 0, plan_ = 0;
  double planned_at_ = 0;  // +inf-like when nothing is planned (plan_ says which one counts)
  bool planned_      = false;
  double busy_until_ = 0;  // the log device
  double checkpoint_until_ = 0;
  // The interval being journalled: bytes, records, and the distinct blocks it changed.
  double interval_B_ = 0, interval_records_ = 0, interval_blocks_ = 0;
  struct DirBlocks {
    uint64_t records   = 0;  // records that changed the directory so far
    uint64_t interval  = 0;  // the last interval that changed it (1-based)
    uint64_t last_slot = 0;  // the block it changed last then
  };
  std::unordered_map<uint64_t, DirBlocks> dirs_;
  uint64_t interval_ = 1;
  double journal_B_ = 0, home_B_ = 0, checkpoints_ = 0;
};

}  // namespace llsim
