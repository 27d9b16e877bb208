#include "sim/serve/engine/router.hpp"

#include "sim/core/registry.hpp"
#include "sim/serve/engine/instance_set.hpp"

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

namespace {

// An instance set as a router sees it, for one request.
class InstanceRoutes : public RouteView {
 public:
  InstanceRoutes(const InstanceSet& set, const FirstTokenEstimate& estimate)
      : set_(set)
      , estimate_(estimate)
      , serving_(set.any_serving())
  {}
  size_t size() const override { return set_.size(); }
  bool candidate(size_t k) const override { return InstanceSet::candidate(set_[k], serving_); }
  int64_t load(size_t k) const override { return set_[k].load(); }
  double first_token_s(size_t k) const override { return estimate_(set_[k]); }

 private:
  const InstanceSet& set_;
  const FirstTokenEstimate& estimate_;
  bool serving_;
};

}  // namespace

std::unique_ptr<Router> router_named(const Params& p, const std::string& key)
{
  p.text(key);  // checks the name, and fills in the default
  return Registry<Router>::create_named(p.ref().child(key), {});
}

ServeInstance* route(Router& router, const InstanceSet& set, const FirstTokenEstimate& estimate)
{
  const int64_t k = router.route(InstanceRoutes(set, estimate));
  return k < 0 ? nullptr : &set[static_cast<size_t>(k)];
}

}  // namespace llsim
