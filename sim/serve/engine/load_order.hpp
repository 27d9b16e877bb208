// The instances of one set ordered by load (sequences running, queued or on their way), then by
// index, kept as their loads change, so that the least loaded candidate of a request is found by
// visiting instances from the least loaded on until one is a candidate (usually the first)
// rather than by visiting them all. Instances that are no candidates and hold nothing (released
// by an autoscaler, or down) sort first and are visited each time: with many of them the search
// costs what a pass did.
#pragma once
#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace llsim {

class LoadOrder {
 public:
  void add(int64_t load);             // the next index, with its load
  void set(int index, int64_t load);  // instance `index`'s load now
  // The first index, from the least loaded on (ties: the lowest index), for which
  // `is_candidate(index)` holds; -1 when none does.
  template <class Candidate>
  int64_t first(Candidate is_candidate) const
  {
    for (const auto& [load, index] : order_)
      if (is_candidate(index))
        return index;
    return -1;
  }

 private:
  std::set<std::pair<int64_t, int>> order_;  // (load, index)
  std::vector<int64_t> loads_;               // by index
};

}  // namespace llsim
