#include "sim/svc/metadata_journal.hpp"

#include "sim/svc/journal_checkpoint.hpp"

#include <algorithm>

namespace llsim {

double MetadataJournal::append(double ready, uint64_t dir_key, double scale)
{
  const double bytes = spec_.record_B * scale;
  const double write = bytes / spec_.log.write_Bps;
  if (ready > group_start_) {
    // A new group: when the device is free (and, when the log is full, the checkpoint is over).
    double start = std::max(ready, device_free_);
    if (interval_B_ >= spec_.every_B)
      start = std::max(start, checkpoint_until_);
    group_start_ = start;
    device_free_ = start + spec_.log.latency_s;
  }
  device_free_ += write;
  const double durable = device_free_;
  journal_B_ += bytes;
  interval_B_ += bytes;
  note_blocks(dir_key, scale);
  if (interval_B_ >= spec_.every_B && checkpoint_until_ <= durable)
    start_checkpoint();
  return durable;
}

void MetadataJournal::note_blocks(uint64_t dir_key, double scale)
{
  interval_records_ += scale;
  const uint64_t per_block = std::max<uint64_t>(1, static_cast<uint64_t>(spec_.block_B / spec_.record_B));
  // A directory's records fill its blocks in order: a block is new to the interval when the
  // directory moved on to it, or had not been changed yet in this interval.
  DirBlocks& d        = dirs_[dir_key];
  const uint64_t slot = d.records++ / per_block;
  if (d.interval != interval_ || d.last_slot != slot)
    interval_blocks_ += scale;
  d.interval  = interval_;
  d.last_slot = slot;
}

void MetadataJournal::start_checkpoint()
{
  // Reading the interval back occupies the log device after the latest group; the home writes go
  // to the server's disks. The next record starts a new group after the scan.
  const double scan_end    = device_free_ + spec_.log.latency_s + interval_B_ / spec_.log.read_Bps;
  device_free_             = scan_end;
  group_start_             = -1;
  const double blocks      = spec_.checkpoint->blocks_written(interval_records_, interval_blocks_);
  const double per_block_s = spec_.home.latency_s + spec_.block_B / spec_.home.write_Bps;
  checkpoint_until_        = scan_end + blocks * per_block_s / static_cast<double>(spec_.home.count);
  home_B_ += blocks * spec_.block_B;
  checkpoints_ += 1;
  interval_B_ = interval_records_ = interval_blocks_ = 0;
  interval_ += 1;
}

}  // namespace llsim
