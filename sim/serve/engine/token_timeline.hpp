// When each iteration of one instance ended, by the batcher's iteration number, for the tokens
// it tells after the fact (sequence.hpp: a run of tokens is told when it breaks). The times before
// the oldest untold token of any sequence the instance holds are forgotten as the list grows; a
// sequence waiting preempted or swapped out keeps its untold run, and so its times, until it
// resumes or ends.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace llsim {

class TokenTimeline {
 public:
  void push(double end_s) { ends_.push_back(end_s); }
  // The end times from iteration `iteration` on (contiguous).
  const double* from(int64_t iteration) const { return &ends_[static_cast<size_t>(iteration - first_)]; }
  // Whether enough has been pushed since the last forget() to look for times no longer needed.
  bool grown() const { return ends_.size() >= forget_at_; }
  // The times before iteration `oldest_needed` are dropped.
  void forget(int64_t oldest_needed)
  {
    ends_.erase(ends_.begin(), ends_.begin() + (oldest_needed - first_));
    first_     = oldest_needed;
    forget_at_ = std::max<size_t>(kForgetAtLeast, 2 * ends_.size());
  }

 private:
  static constexpr size_t kForgetAtLeast = 4096;  // times; a look costs a pass over the sequences held
  std::vector<double> ends_;
  int64_t first_    = 0;  // the iteration of ends_[0]
  size_t forget_at_ = kForgetAtLeast;
};

}  // namespace llsim
