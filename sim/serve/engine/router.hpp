// Contract of a router (registry "router", named by a serve system's `router:` key): which of a
// group's instances takes a request. It sees the group through a RouteView: by index, whether
// an instance is a candidate (it serves or, when none of the group does, it accepts requests
// while it loads its weights), its load, and the serve system's estimate of the time to the
// request's first token there, which counts what each system knows (vllm: the prefill queued
// there and the request's own; Mooncake: also bringing the pool's prefix blocks over). A router
// may keep state of its own (round robin's turn). Plain decision logic: no simulated time
// passes, and tests/unit/router_test.cpp drives it through a view of its own.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace llsim {

class RouteView {
 public:
  virtual ~RouteView()                         = default;
  virtual size_t size() const                  = 0;  // the group's instances, by index
  virtual bool candidate(size_t k) const       = 0;
  virtual int64_t load(size_t k) const         = 0;  // sequences running, queued or on their way
  virtual double first_token_s(size_t k) const = 0;  // asked only of candidates
  // The candidate with the fewest sequences, ties to the lowest index (-1: none): least_loaded's
  // choice. A pass over the instances, unless the view keeps them ordered by load.
  virtual int64_t fewest_sequences() const;
};

class Router {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "router";
  static constexpr const char* kHeader        = "sim/serve/engine/router.hpp";
  static constexpr const char* kSelector      = "router";

  virtual ~Router() = default;
  // The index of the instance that takes the request; -1 when no instance is a candidate.
  virtual int64_t route(const RouteView& view) = 0;
  // Whether it weighs the instances' prefix caches (the system must keep them).
  virtual bool reads_prefix_caches() const { return false; }
};

// The candidate with the smallest estimate; ties go to the lowest index or, `by_load_first`, to
// the one with the fewest sequences, then the lowest index. -1 when there is no candidate.
int64_t fastest_first_token(const RouteView& view, bool by_load_first);

class Params;
// The router that a serve system's `key` (a text among the routers' names) names.
std::unique_ptr<Router> router_named(const Params& p, const std::string& key);

}  // namespace llsim
