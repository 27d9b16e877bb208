#include "sim/svc/files/stripe_layout.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

std::vector<std::pair<size_t, double>> stripe_parts(const StripeLayout& layout, double offset, double bytes)
{
  std::vector<double> per_slot(layout.count, 0);
  const double u   = layout.stripe_B;
  const double end = offset + bytes;
  if (bytes > 0) {
    const auto n      = static_cast<double>(layout.count);
    const double s0   = std::floor(offset / u);
    const double s1   = std::ceil(end / u) - 1;  // last stripe touched
    const auto slot   = [n](double s) { return static_cast<size_t>(std::fmod(s, n)); };
    const auto inside = [&](double s) { return std::min(end, (s + 1) * u) - std::max(offset, s * u); };
    per_slot[slot(s0)] += inside(s0);
    if (s1 > s0)
      per_slot[slot(s1)] += inside(s1);
    // Whole stripes s0+1 .. s1-1, dealt round-robin from slot(s0 + 1).
    const double whole  = std::max(0.0, s1 - s0 - 1);
    const double rounds = std::floor(whole / n), rest = whole - rounds * n;
    for (size_t k = 0; k < layout.count; ++k)
      per_slot[k] += rounds * u;
    for (double r = 0; r < rest; ++r)
      per_slot[slot(s0 + 1 + r)] += u;
  }
  std::vector<std::pair<size_t, double>> parts;
  for (size_t k = 0; k < layout.count; ++k)
    if (per_slot[k] > 0)
      parts.emplace_back(layout.target(k), per_slot[k]);
  return parts;
}

}  // namespace llsim
