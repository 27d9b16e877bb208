#include "sim/core/errors.hpp"
#include "sim/core/random.hpp"
#include "sim/core/registry.hpp"
#include "sim/serve/engine/load_order.hpp"
#include "sim/serve/engine/router.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace llsim;

namespace {

std::unique_ptr<Router> make(const std::string& name)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "s.yaml";
  return Registry<Router>::create_named(YamlRef(YAML::Load(name), "router", source), {});
}

// A group as a router sees it: per instance, whether it is a candidate, its load and its
// estimated time to first token; it counts the estimates asked for.
struct FakeView : RouteView {
  std::vector<bool> up;
  std::vector<int64_t> loads;
  std::vector<double> ttft;
  mutable int asked = 0;
  size_t size() const override { return up.size(); }
  bool candidate(size_t k) const override { return up[k]; }
  int64_t load(size_t k) const override { return loads[k]; }
  double first_token_s(size_t k) const override { return ++asked, ttft[k]; }
};

}  // namespace

TEST_CASE("router: round_robin takes the instances in turn, skipping those that are not candidates", "[router]")
{
  auto r = make("round_robin");
  FakeView v;
  v.up    = {true, false, true};
  v.loads = {9, 0, 9};
  v.ttft  = {9, 0, 9};
  std::vector<int64_t> got;
  for (int i = 0; i < 4; ++i)
    got.push_back(r->route(v));
  CHECK(got == std::vector<int64_t>{0, 2, 0, 2});
  CHECK(v.asked == 0);
  v.up = {false, false, false};
  CHECK(r->route(v) == -1);
  CHECK_FALSE(r->reads_prefix_caches());
}

TEST_CASE("router: least_loaded takes the fewest sequences among the candidates, ties to the lowest index", "[router]")
{
  auto r = make("least_loaded");
  FakeView v;
  v.up    = {true, false, true, true};
  v.loads = {3, 0, 2, 2};
  v.ttft  = {0, 0, 0, 0};
  CHECK(r->route(v) == 2);
  v.loads[2] = 5;
  CHECK(r->route(v) == 3);
  CHECK(v.asked == 0);
}

TEST_CASE("router: kv_aware and conductor take the smallest estimate; kv_aware breaks ties by load", "[router]")
{
  FakeView v;
  v.up    = {true, true, true, false};
  v.loads = {4, 1, 2, 0};
  v.ttft  = {0.5, 0.5, 0.7, 0.1};  // the fastest is not a candidate
  auto kv = make("kv_aware"), conductor = make("conductor");
  CHECK(kv->route(v) == 1);         // 0 and 1 tie: 1 holds fewer sequences
  CHECK(conductor->route(v) == 0);  // ties: the lowest index
  CHECK(v.asked == 6);              // one estimate per candidate and route
  CHECK(kv->reads_prefix_caches());
  CHECK(conductor->reads_prefix_caches());
  v.up = {false, false, false, false};
  CHECK(kv->route(v) == -1);
}

TEST_CASE("router: a name that is not registered lists the routers", "[router]")
{
  CHECK_THROWS_WITH(make("random"), Catch::Contains("unknown router 'random' (expected conductor, kv_aware, "
                                                    "least_loaded or round_robin)"));
}

TEST_CASE("router: a load order finds the least loaded candidate that a pass over the instances finds", "[router]")
{
  // Random loads and candidates, changed one at a time: the order's first candidate is always the
  // pass's choice (fewest sequences, ties to the lowest index, -1 without a candidate).
  Rng rng(7);
  FakeView v;
  LoadOrder order;
  for (int k = 0; k < 12; ++k) {
    v.up.push_back(true);
    v.loads.push_back(0);
    order.add(0);
  }
  for (int step = 0; step < 2000; ++step) {
    const auto k = static_cast<size_t>(rng.bits() % 12);
    if (rng.uniform() < 0.2)
      v.up[k] = !v.up[k];
    else
      v.loads[k] = std::max<int64_t>(0, v.loads[k] + static_cast<int64_t>(rng.bits() % 5) - 2);
    order.set(static_cast<int>(k), v.loads[k]);
    const int64_t by_order = order.first([&v](int i) { return v.up[static_cast<size_t>(i)]; });
    REQUIRE(by_order == v.RouteView::fewest_sequences());
  }
}
