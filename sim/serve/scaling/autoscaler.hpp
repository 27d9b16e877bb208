// Contract of an autoscaling policy (registry "autoscaler", chosen with `impl:` under a serve
// phase's `autoscale:`): how many of a serving system's instances it keeps allocated, decided
// every `period` from what the instances report. Pure decision logic.
//
//   autoscale: {impl: target, metric: running, target: 16, min: 1, max: 8, cooldown: 1min,
//               scale_down_delay: 5min, period: 10s, provisioning: 30s}
//
// The policy proposes a count; the governor (scaling_governor.hpp) holds it within [min, max],
// waits `cooldown` after a change before the next, and scales down only after the proposals
// stayed below the allocated count for `scale_down_delay` (to the highest of them meanwhile).
// A new instance is provisioned for `provisioning`, then loads its weights (the phase's
// `weights:`), then serves. Policy `none` keeps every instance allocated and has no keys.
#pragma once
#include "sim/core/params.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace llsim {

// What the instances report at a decision.
struct ScaleObservation {
  double now_s         = 0;
  int64_t allocated    = 0;  // instances allocated: starting, loading or serving
  int64_t serving      = 0;  // those serving
  double queued        = 0;  // sequences waiting in the allocated instances' queues
  double running       = 0;  // sequences in their batches
  double kv_used_share = 0;  // their mean share of KV blocks in use
  double busy          = 0;  // their GPUs' busy seconds since the last decision / the period
  double gpu_compute   = 0;  // the same for their flop's time at the GPUs' peak (GpuUse::compute_s)
};

struct ScalingLimits {
  int64_t min           = 1;
  int64_t max           = 1;
  double cooldown_s     = 60;
  double scale_down_s   = 300;
  double period_s       = 10;
  double provisioning_s = 0;
  std::string period_at;  // Params::located("period"), for the limit on decisions
};

class Autoscaler {
 public:
  struct Context {
    int64_t instances = 1;  // the system's instances: the default and the bound of max
  };
  static constexpr const char* kInterfaceName = "autoscaler";
  static constexpr const char* kHeader        = "sim/serve/scaling/autoscaler.hpp";
  static constexpr const char* kSelector      = "impl";

  virtual ~Autoscaler() = default;
  // False for `none`: every instance is allocated the whole phase.
  virtual bool scales() const { return true; }
  virtual const ScalingLimits& limits() const = 0;
  // The instances wanted at the start (before any observation).
  virtual int64_t initial() const = 0;
  // The instances the policy proposes now (the governor bounds it).
  virtual int64_t propose(const ScaleObservation& o) = 0;
};

// The keys every policy but `none` has: min, max, cooldown, scale_down_delay, period,
// provisioning; read into limits (max bounded by the system's instances).
const ParamTable& scaling_params();
ScalingLimits parse_scaling_limits(const Params& p, int64_t instances);

}  // namespace llsim
