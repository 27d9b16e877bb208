#include "sim/serve/engine/router.hpp"

#include "sim/core/registry.hpp"

namespace llsim {

int64_t fastest_first_token(const RouteView& view, bool by_load_first)
{
  int64_t best  = -1;
  double best_s = 0;
  for (size_t k = 0; k < view.size(); ++k) {
    if (!view.candidate(k))
      continue;
    const double s = view.first_token_s(k);
    if (best < 0 || s < best_s ||
        (by_load_first && s == best_s && view.load(k) < view.load(static_cast<size_t>(best)))) {
      best   = static_cast<int64_t>(k);
      best_s = s;
    }
  }
  return best;
}

int64_t RouteView::fewest_sequences() const
{
  int64_t best = -1;
  for (size_t k = 0; k < size(); ++k)
    if (candidate(k) && (best < 0 || load(k) < load(static_cast<size_t>(best))))
      best = static_cast<int64_t>(k);
  return best;
}

std::unique_ptr<Router> router_named(const Params& p, const std::string& key)
{
  p.text(key);  // checks the name, and fills in the default
  return Registry<Router>::create_named(p.ref().child(key), {});
}

}  // namespace llsim
