#include "sim/svc/metadata_journal.hpp"

#include "sim/sg/clock.hpp"
#include "sim/sg/timer.hpp"
#include "sim/svc/journal_checkpoint.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

MetadataJournal::MetadataJournal(const JournalSpec& spec, Timer& timer) : spec_(spec), timer_(timer) {}

void MetadataJournal::append(double ready, uint64_t dir_key, double scale, std::function<void(double)> durable)
{
  pending_.push({ready, order_++, dir_key, scale, std::move(durable)});
  plan_commit(std::max(ready, busy_until_));
}

void MetadataJournal::plan_commit(double t)
{
  if (planned_ && planned_at_ <= t)
    return;
  planned_    = true;
  planned_at_ = t;
  const uint64_t plan = ++plan_;
  timer_.at(t, [this, plan] { commit(plan); });
}

void MetadataJournal::commit(uint64_t plan)
{
  if (plan != plan_)
    return;  // a later plan replaced this one
  planned_         = false;
  const double t   = now();
  // The log device is busy, or full while a checkpoint is under way: try again when it frees.
  const double blocked = std::max(busy_until_, interval_B_ >= spec_.every_B ? checkpoint_until_ : 0.0);
  if (blocked > t) {
    plan_commit(blocked);
    return;
  }
  std::vector<std::function<void(double)>> group;
  double bytes = 0;
  while (!pending_.empty() && pending_.top().ready <= t) {
    Record r = std::move(const_cast<Record&>(pending_.top()));
    pending_.pop();
    bytes += spec_.record_B * r.scale;
    note_blocks(r);
    group.push_back(std::move(r.durable));
  }
  if (!group.empty()) {
    busy_until_ = t + spec_.log.latency_s + bytes / spec_.log.write_Bps;
    journal_B_ += bytes;
    interval_B_ += bytes;
    for (const auto& durable : group)
      durable(busy_until_);
    if (interval_B_ >= spec_.every_B && checkpoint_until_ <= t)
      start_checkpoint(busy_until_);
  }
  if (!pending_.empty())
    plan_commit(std::max(pending_.top().ready, busy_until_));
}

void MetadataJournal::note_blocks(const Record& r)
{
  interval_records_ += r.scale;
  const uint64_t per_block = std::max<uint64_t>(1, static_cast<uint64_t>(spec_.block_B / spec_.record_B));
  // A directory's records fill its blocks in order: a block is new to the interval when the
  // directory moved on to it, or had not been changed yet in this interval.
  DirBlocks& d        = dirs_[r.dir_key];
  const uint64_t slot = d.records++ / per_block;
  if (d.interval != interval_ || d.last_slot != slot)
    interval_blocks_ += r.scale;
  d.interval  = interval_;
  d.last_slot = slot;
}

void MetadataJournal::start_checkpoint(double t)
{
  // Reading the interval back occupies the log device; the home writes go to the server's disks.
  const double scan_end = std::max(busy_until_, t) + spec_.log.latency_s + interval_B_ / spec_.log.read_Bps;
  busy_until_           = scan_end;
  const double blocks   = spec_.checkpoint->blocks_written(interval_records_, interval_blocks_);
  const double per_block_s = spec_.home.latency_s + spec_.block_B / spec_.home.write_Bps;
  checkpoint_until_ = scan_end + blocks * per_block_s / static_cast<double>(spec_.home.count);
  home_B_ += blocks * spec_.block_B;
  checkpoints_ += 1;
  interval_B_ = interval_records_ = interval_blocks_ = 0;
  interval_ += 1;
}

}  // namespace llsim
