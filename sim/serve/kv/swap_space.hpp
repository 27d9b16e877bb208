// The swap space of one serving instance under preemption by swap (vLLM V0): `capacity` KV
// blocks in CPU memory (or a swap pool), the sequences whose KV it holds, in arrival (id) order
// so that the earliest comes back first, and the moves out of HBM and back in made by the
// iteration being planned. Bookkeeping only: the instance moves the bytes (instance_swaps.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace llsim {

// A sequence's KV moved in the iteration being planned: out of HBM (it was preempted) or back in
// (it rejoins the decodes).
struct SwapMove {
  int64_t id     = 0;
  int64_t blocks = 0;
  bool out       = true;
};

class SwapSpace {
 public:
  explicit SwapSpace(int64_t capacity);

  bool enabled() const { return capacity_ > 0; }  // 0: preemption by recompute
  bool empty() const { return ids_.empty(); }
  size_t size() const { return ids_.size(); }
  bool fits(int64_t blocks) const { return blocks <= free_; }
  const std::vector<int64_t>& ids() const { return ids_; }  // arrival order
  int64_t front() const { return ids_.front(); }
  int64_t blocks_of(int64_t id) const;  // 0 when it holds none of `id`'s

  void put(int64_t id, int64_t blocks);  // `id`'s KV goes out now
  int64_t take_front();                  // the earliest comes back now; its blocks
  void drop(int64_t id);                 // `id`'s KV is gone (its move failed): no move recorded
  void reset();                          // a failure: nothing held (this iteration's moves kept)

  void new_iteration() { moves_.clear(); }
  const std::vector<SwapMove>& moves() const { return moves_; }
  int64_t moved_blocks() const;

 private:
  int64_t capacity_, free_;
  std::vector<int64_t> ids_, blocks_;  // held, in id order, and their blocks
  std::vector<SwapMove> moves_;        // those of the iteration being planned
};

}  // namespace llsim
