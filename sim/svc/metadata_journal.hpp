// The journal of one metadata server: every mutating operation appends a record to a log device,
// and its reply waits until the record is durable. Records are committed in groups (group
// commit): a device write carries every record that became ready while the previous write was
// under way, and takes the device's latency plus the group's bytes at its write bandwidth. So a
// slow log device (an HDD) adds its latency to every mutating operation and, once the server
// produces records faster than the device takes them, bounds the server's rate.
//
// Checkpoints: when `every` bytes have been journalled since the last one, a checkpoint reads
// that interval back from the log device (commits wait behind the scan) and writes the blocks it
// changed to their home location, the server's disks (spread evenly over them, each block one
// I/O: latency + block / write bandwidth). The checkpoint model decides how many blocks that is
// (journal_checkpoint.hpp). The log holds two intervals: while a checkpoint is under way and the
// next interval is full, commits wait for it to end.
//
// Blocks: the records changing one directory fill its home blocks in order, block / record of
// them per block (an assumption: entries appended to a directory share blocks).
//
// Computed in closed form as records are appended, in the order the server finished their
// operations' service (like fifo_threads.hpp): no events. A record that became ready before the
// latest group started joins it (the group's write grows by its bytes; records already in the
// group keep the end they were given, at most the new bytes' write time early).
#pragma once
#include "sim/core/hash_index.hpp"
#include "sim/platform/platform_spec.hpp"

#include <cstdint>
#include <memory>

namespace llsim {

class JournalCheckpoint;

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
  explicit MetadataJournal(const JournalSpec& spec)
      : spec_(spec)
  {}
  // A record of an operation whose service ended at `ready`, that changed directory `dir_key`,
  // standing for `scale` identical records: when it is durable on the log device.
  double append(double ready, uint64_t dir_key, double scale);

  double journal_B() const { return journal_B_; }
  double home_B() const { return home_B_; }
  double checkpoints() const { return checkpoints_; }

 private:
  void note_blocks(uint64_t dir_key, double scale);
  void start_checkpoint();

  JournalSpec spec_;
  // The latest group write: it starts at group_start_ and the device is busy until device_free_.
  double group_start_ = -1, device_free_ = 0;
  double checkpoint_until_ = 0;
  // The interval being journalled: bytes, records, and the distinct blocks it changed.
  double interval_B_ = 0, interval_records_ = 0, interval_blocks_ = 0;
  struct DirBlocks {
    uint64_t records   = 0;  // records that changed the directory so far
    uint64_t interval  = 0;  // the last interval that changed it (1-based)
    uint64_t last_slot = 0;  // the block it changed last then
  };
  HashIndex<DirBlocks> dirs_;
  uint64_t interval_ = 1;
  double journal_B_ = 0, home_B_ = 0, checkpoints_ = 0;
};

}  // namespace llsim
