#include "sim/svc/server_stats.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

ServerStats::ServerStats(double period_s, size_t threads) : period_s_(period_s), threads_(static_cast<double>(threads)) {}

void ServerStats::close_bucket()
{
  if (bytes_ > 0 || operations_ > 0 || queue_s_ > 0 || busy_s_ > 0)
    rows_.push_back({static_cast<double>(bucket_ + 1) * period_s_, bytes_, operations_, queue_s_ / period_s_,
                     busy_s_ / (period_s_ * threads_)});
  bytes_ = operations_ = queue_s_ = busy_s_ = 0;
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
  total_bytes_ += bytes;
  total_operations_ += operations;
}

void ServerStats::set_queue(double now, size_t queued)
{
  advance(now);
  queue_      = queued;
  peak_queue_ = std::max(peak_queue_, queued);
}

void ServerStats::set_busy(double now, size_t busy)
{
  advance(now);
  busy_ = busy;
}

void ServerStats::finish(double now)
{
  advance(now);
  if (now > static_cast<double>(bucket_) * period_s_) {
    // The last, partial bucket: averages over its actual length.
    const double length = now - static_cast<double>(bucket_) * period_s_;
    if (bytes_ > 0 || operations_ > 0 || queue_s_ > 0 || busy_s_ > 0)
      rows_.push_back({now, bytes_, operations_, queue_s_ / length, busy_s_ / (length * threads_)});
    bytes_ = operations_ = queue_s_ = busy_s_ = 0;
  }
}

}  // namespace llsim
