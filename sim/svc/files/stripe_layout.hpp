// Striping of a file over the targets of a storage service, Lustre-like: the file's bytes are cut
// in `stripe_B` units dealt round-robin to its `count` targets: first, first + stride, ... in the
// service's target numbering (wrapping around `total`). Pure logic.
#pragma once
#include <cstddef>
#include <utility>
#include <vector>

namespace llsim {

struct StripeLayout {
  size_t first    = 0;  // first target (index over all targets of the service)
  size_t count    = 1;  // targets the file is striped over
  size_t stride   = 1;  // distance between two of its targets
  size_t total    = 1;  // targets of the service
  double stripe_B = 1048576;

  size_t target(size_t k) const { return (first + k * stride) % total; }  // k < count
};

// The bytes of [offset, offset + bytes) of the file on each target it touches, as (target,
// bytes), targets in the file's order. Whole stripes are counted exactly; the range may start
// and end inside a stripe.
std::vector<std::pair<size_t, double>> stripe_parts(const StripeLayout& layout, double offset, double bytes);

}  // namespace llsim
