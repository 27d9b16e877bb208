#include "sim/svc/server_stats.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

ServerStats::ServerStats(double period_s, size_t units)
    : period_s_(period_s)
    , units_(static_cast<double>(units))
{}

bool ServerStats::bucket_active() const
{
  return bytes_ > 0 || operations_ > 0 || queue_s_ > 0 || busy_s_ > 0 || level_moved_;
}

void ServerStats::close_bucket()
{
  if (bucket_active())
    rows_.push_back({static_cast<double>(bucket_ + 1) * period_s_, bytes_, operations_, queue_s_ / period_s_,
                     busy_s_ / (period_s_ * units_), level_});
  bytes_ = operations_ = queue_s_ = busy_s_ = 0;
  level_moved_                              = false;
}

void ServerStats::advance(double now)
{
  while (true) {
    const double bucket_end = static_cast<double>(bucket_ + 1) * period_s_;
    const double until      = std::min(now, bucket_end);
    if (until > last_s_) {
      queue_s_ += static_cast<double>(queue_) * (until - last_s_);
      busy_s_ += static_cast<double>(busy_) * (until - last_s_);
      total_busy_s_ += static_cast<double>(busy_) * (until - last_s_);
      last_s_ = until;
    }
    if (now < bucket_end)
      return;
    close_bucket();
    // Skip whole idle buckets at once.
    bucket_ += 1;
    if (queue_ == 0 && busy_ == 0 && now >= static_cast<double>(bucket_ + 1) * period_s_) {
      bucket_ = static_cast<size_t>(std::floor(now / period_s_));
      last_s_ = static_cast<double>(bucket_) * period_s_;
    }
  }
}

void ServerStats::add(double now, double bytes, double operations)
{
  advance(now);
  bytes_ += bytes;
  operations_ += operations;
  total_B_ += bytes;
  total_operations_ += operations;
}

void ServerStats::queue_changed(double now, long delta)
{
  advance(now);
  queue_      = static_cast<size_t>(static_cast<long>(queue_) + delta);
  peak_queue_ = std::max(peak_queue_, queue_);
}

void ServerStats::busy_changed(double now, long delta)
{
  advance(now);
  busy_ = static_cast<size_t>(static_cast<long>(busy_) + delta);
}

void ServerStats::level_changed(double now, double level)
{
  advance(now);
  level_       = level;
  level_moved_ = true;
}

void ServerStats::finish(double now)
{
  advance(now);
  if (now > static_cast<double>(bucket_) * period_s_) {
    // The last, partial bucket: averages over its actual length.
    const double length = now - static_cast<double>(bucket_) * period_s_;
    if (bucket_active())
      rows_.push_back({now, bytes_, operations_, queue_s_ / length, busy_s_ / (length * units_), level_});
    bytes_ = operations_ = queue_s_ = busy_s_ = 0;
    level_moved_                              = false;
  }
}

}  // namespace llsim
