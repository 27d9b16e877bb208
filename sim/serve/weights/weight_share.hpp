// The pp engines of one pipeline-parallel vLLM instance (its virtual engines, on the same GPUs)
// load the instance's weights once, together: the first engine to ask starts the load of the
// whole instance (all of the weights, by its tp x pp ranks), the others join it. The load is
// cancelled only when every engine that joined it has left it (their host failed, or the phase
// ended for them); after a completed load, the next engine to ask starts a new one (after a
// failure). The share keeps the load's record in <phase>_loads.csv, under the instance's first
// engine's number: completed, or when the last engine left, interrupted or abandoned.
#pragma once
#include "sim/serve/weights/load_tally.hpp"
#include "sim/serve/weights/weight_source.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace llsim {

class WeightShare {
 public:
  using Turn = uint64_t;  // a load's generation: 1 for the first, then one more for each
  // `whole`: the instance's target (its first engine's number, its host, tp x pp ranks).
  WeightShare(WeightSource& source, const WeightTarget& whole, LoadTally& loads);

  // An engine's turn: the load under way, or one completed after `last_completed`, else a new
  // one (`initial`: at the phase's start). `wake` runs when the load may be over.
  Turn join(std::function<void()> wake, bool initial, Turn last_completed);
  bool over(Turn turn) const { return turn == turn_ && load_ && load_->over(); }
  // The engine stops waiting for `turn`: its host failed, or `abandoned` (no more work comes).
  void leave(Turn turn, bool abandoned);
  const WeightTarget& whole() const { return whole_; }

 private:
  void changed();  // the load may be over: record it and wake the engines

  WeightSource& source_;
  WeightTarget whole_;
  LoadTally& loads_;
  std::shared_ptr<WeightLoad> load_;  // null while it starts
  Turn turn_     = 0;
  int waiting_   = 0;  // engines in this turn that have not left
  size_t record_ = 0;
  bool recorded_ = false;  // the turn's record has its end
  std::vector<std::function<void()>> wakes_;
};

}  // namespace llsim
