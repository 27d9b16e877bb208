// The serving instances of one group of a serve system, as every system needs them: started
// one per host, following its host's faults, loading their weights when the phase has a
// weights section, the least loaded of those serving found, closed and joined at the end, their
// preemptions and swapped KV summed.
#pragma once
#include "sim/serve/engine/router.hpp"
#include "sim/serve/engine/serve_instance.hpp"
#include "sim/serve/engine/serve_system.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

class InstanceSet {
 public:
  // Creates an instance that reports finished and lost requests to env.progress, follows the
  // faults of `host` and loads the weights over `ranks` GPUs (when env.weights is set), lets
  // `setup` set its iteration, hooks and fault hosts, and starts it. An index from
  // env.allocated_at_start on starts released (autoscaling).
  ServeInstance& start(ServeEnv& env, int index, HostId host, const BatcherConfig& config, InstanceRole role,
                       int64_t ranks, const std::function<void(ServeInstance&)>& setup);

  size_t size() const { return instances_.size(); }
  ServeInstance& operator[](size_t i) const { return *instances_[i]; }
  ServeInstance& front() const { return *instances_.front(); }
  // The one serving with the fewest sequences running, queued or on their way; ties: the lowest
  // index. When none is serving, the same among those up (loading their weights); null when
  // none is up. The least_loaded router's choice (RouteView::fewest_sequences).
  ServeInstance* least_loaded() const;
  bool any_serving() const;
  const LoadOrder& load_order() const { return load_order_; }  // its instances by load
  // Whether a router may send `i` a request: it serves, or, when none of its set does
  // (`serving` false), it accepts requests while it loads its weights.
  static bool candidate(const ServeInstance& i, bool serving) { return serving ? i.serving() : i.accepting(); }
  // The loads a router sees, for logs: "3 1 down 0", one per instance in index order.
  std::string loads() const;
  void close_and_join();
  double preemptions() const { return sum(&Batcher::preemptions); }
  double recomputed_tokens() const { return sum(&Batcher::recomputed_tokens); }
  double held_seconds() const;  // the instances' GPU time (after close_and_join)
  GpuUse gpu_use() const;       // what their iterations asked of their GPUs
  // Their hosts' held, busy and GPU-load seconds, for the accounting: `group` is theirs. An
  // instance on `ranks` of a host's GPUs holds that share of the host.
  GroupUse usage(const GroupSpec& group) const;

 private:
  double sum(double (Batcher::*figure)() const) const;

  std::vector<std::unique_ptr<ServeInstance>> instances_;
  std::vector<int64_t> ranks_;  // each instance's GPUs on its host
  LoadOrder load_order_;
};

// The seconds to the request's first token at an instance, as a serve system estimates it.
using FirstTokenEstimate = std::function<double(ServeInstance& instance)>;
// `router`'s choice among `set`'s instances (null: none is a candidate).
ServeInstance* route(Router& router, const InstanceSet& set, const FirstTokenEstimate& estimate);

// Why a request was rejected, as the phase's `bottlenecks` name it (sim/sg/wait_ledger.hpp).
inline constexpr const char* kTooBigForKv    = "KV capacity";  // its tokens exceed an instance's KV
inline constexpr const char* kNoInstanceUp   = "no instance up";
inline constexpr const char* kEarlyRejection = "early rejection";  // an SLO estimate said it would miss

// Counts a request as rejected now, for `reason`.
void reject_request(ServeEnv& env, int64_t id, const char* reason);

}  // namespace llsim
