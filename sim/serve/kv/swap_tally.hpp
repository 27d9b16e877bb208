// The KV moves of preemption by swap in a serve phase: one record per sequence's move out of HBM
// (preempted) or back in, where it went (the CPU memory over PCIe, or a memory_pool service), its
// bytes, and whether they arrived. A move that did not arrive leaves its sequence to be
// recomputed (or lost, with its instance, when the instance's host failed).
//
// CSV <phase>_swaps.csv, one row per move in the order recorded: start_s, end_s, instance, request,
// direction (out or in), bytes, to (cpu or the pool's name), outcome (moved, rejected: the pool
// had no room; missed: the pool no longer held it; failed: a host failed first). A sequence lost
// with its instance while swapped out gets an `in` row, failed.
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/metrics.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace llsim {

enum class SwapOutcome { Moved, Rejected, Missed, Failed };

class SwapTally {
 public:
  struct Move {
    double start_s = 0, end_s = 0;
    int instance    = 0;
    int64_t request = 0;
    bool out        = true;
    double bytes    = 0;
    std::string to;
    SwapOutcome outcome = SwapOutcome::Moved;
  };
  void add(Move m) { moves_.push_back(std::move(m)); }
  bool empty() const { return moves_.empty(); }
  // kv_swapped_bytes (the bytes of the moves that arrived) and kv_swap_failures.
  static const MetricTable& metric_table();
  Metrics metrics() const;
  CsvWriter table() const;

 private:
  std::vector<Move> moves_;
};

}  // namespace llsim
