// When each iteration of one instance ended, by the batcher's iteration number, for the tokens
// it tells after the fact (sequence.hpp: a run of tokens is told when it breaks). The times before
// the oldest iteration still untold are forgotten as the list grows, so it holds about as many
// as the longest run of a live sequence.
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
