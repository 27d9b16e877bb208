// What one server of a service did over the whole run, in time buckets of `period`: bytes moved,
// operations completed, and the time averages of its queue length and of its busy units
// (utilisation = busy units / units; the units are its threads, or its disks for a storage
// server). Several parts of a server may queue requests: each reports its own changes. A server
// that holds data (a memory pool) also reports its stored bytes, a level written as it stands at
// the end of each bucket. Only buckets with activity (a level change included) are kept, so long
// idle stretches cost nothing; the level does not change between two kept buckets.
#pragma once
#include <cstddef>
#include <vector>

namespace llsim {

class ServerStats {
 public:
  struct Row {
    double time_s;  // end of the bucket
    double bytes, operations, queue, utilisation;
    double level;  // at the end of the bucket
  };

  ServerStats(double period_s, size_t units);
  void add(double now, double bytes, double operations);
  void queue_changed(double now, long delta);    // requests waiting
  void busy_changed(double now, long delta);     // units at work
  void level_changed(double now, double level);  // bytes stored
  void finish(double now);                       // closes the last bucket

  const std::vector<Row>& rows() const { return rows_; }
  double bytes() const { return total_B_; }
  double operations() const { return total_operations_; }
  double busy_seconds() const { return total_busy_s_; }  // unit-seconds
  double units() const { return units_; }
  size_t peak_queue() const { return peak_queue_; }

 private:
  void advance(double now);  // integrates queue and busy up to `now`, closing buckets on the way
  void close_bucket();
  bool bucket_active() const;

  double period_s_;
  double units_;
  size_t bucket_ = 0;  // index of the open bucket
  double last_s_ = 0;  // integrated up to here
  size_t queue_ = 0, busy_ = 0;
  double bytes_ = 0, operations_ = 0, queue_s_ = 0, busy_s_ = 0;  // open bucket
  bool level_moved_ = false;                                      // in the open bucket
  double level_     = 0;
  std::vector<Row> rows_;
  double total_B_ = 0, total_operations_ = 0, total_busy_s_ = 0;
  size_t peak_queue_ = 0;
};

}  // namespace llsim
