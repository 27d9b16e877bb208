// The pp engines of one pipeline-parallel vLLM instance (its virtual engines, on the same GPUs)
// load the instance's weights once, together: the first engine to ask starts the load of the
// whole instance (all of the weights, by its tp x pp ranks), the others join it. The load is
// cancelled only when every engine that joined it has left it (their host failed, or the phase
// ended); after a completed load, the next engine to ask starts a new one (after a failure).
#pragma once
#include "sim/serve/weight_source.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace llsim {

class WeightShare {
 public:
  // `whole`: the instance's target (its first engine's number, its host, tp x pp ranks).
  WeightShare(WeightSource& source, const WeightTarget& whole);

  // An engine's turn to load; `completed`: the share's generation whose load it last completed
  // (updated when the returned load is over).
  std::shared_ptr<WeightLoad> join(uint64_t& completed, std::function<void()> changed);
  const WeightTarget& whole() const { return whole_; }

 private:
  class Member;
  bool over(uint64_t generation) const;  // that generation's load is complete
  const std::string& source() const;
  void changed();  // wakes every engine waiting on the load under way
  void leave();    // a member cancelled: the load stops when none is left

  WeightSource& source_;
  WeightTarget whole_;
  std::shared_ptr<WeightLoad> load_;  // null while it starts
  uint64_t generation_ = 0;
  int members_         = 0;
  std::vector<std::function<void()>> wakers_;
};

}  // namespace llsim
