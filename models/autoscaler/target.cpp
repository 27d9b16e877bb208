// Autoscaler `target`: keeps a metric of the allocated instances near a target per instance, as
// Kubernetes' horizontal pod autoscaler does: it proposes ceil(total / target) instances, the
// total being the sequences queued (`queue_length`), running (`running`) or both (`sequences`)
// over the allocated instances; for `kv_use` their KV blocks in use, for `gpu_utilization` their
// GPUs' flop at peak (the metric of that name: MFU) and for `gpu_busy_share` their GPUs' busy
// time, both over the last period; the last three in instance units (a share per instance).
// The governor then bounds it (sim/serve/scaling/autoscaler.hpp). It starts with `min` instances.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/autoscale.yaml
#include "sim/core/registry.hpp"
#include "sim/serve/scaling/autoscaler.hpp"

#include <cmath>

namespace llsim {

namespace {

const ParamTable& target_params()
{
  static const ParamTable t = [] {
    ParamTable own = {
        ParamSpec::one_of("metric",
                          {"queue_length", "running", "sequences", "kv_use", "gpu_utilization", "gpu_busy_share"},
                          "queue_length, running, sequences (queued + running), kv_use, gpu_utilization (the "
                          "flop's time at peak over time: MFU) or gpu_busy_share (time in iterations)")
            .defaults("running"),
        ParamSpec::quantity("target", Dimension::Number,
                            "the metric per instance to keep (sequences; a share for kv_use, gpu_utilization and "
                            "gpu_busy_share)")
            .positive(),
    };
    own.insert(own.end(), scaling_params().begin(), scaling_params().end());
    return own;
  }();
  return t;
}

enum class Metric { QueueLength, Running, Sequences, KvUse, GpuUtilization, GpuBusyShare };

class TargetAutoscaler : public Autoscaler {
 public:
  TargetAutoscaler(const Params& p, const Context& c)
      : limits_(parse_scaling_limits(p, c.instances))
      , target_(p.quantity("target"))
  {
    const std::string m = p.text("metric");
    if (m == "queue_length")
      metric_ = Metric::QueueLength;
    else if (m == "running")
      metric_ = Metric::Running;
    else if (m == "sequences")
      metric_ = Metric::Sequences;
    else if (m == "kv_use")
      metric_ = Metric::KvUse;
    else if (m == "gpu_utilization")
      metric_ = Metric::GpuUtilization;
    else
      metric_ = Metric::GpuBusyShare;
    if (metric_ != Metric::QueueLength && metric_ != Metric::Running && metric_ != Metric::Sequences && target_ > 1)
      p.fail("target", m + " is a share per instance: a target in (0, 1]");
  }
  const ScalingLimits& limits() const override { return limits_; }
  int64_t initial() const override { return limits_.min; }
  int64_t propose(const ScaleObservation& o) override
  {
    double total = o.running;
    if (metric_ == Metric::QueueLength)
      total = o.queued;
    else if (metric_ == Metric::Sequences)
      total = o.queued + o.running;
    else if (metric_ == Metric::KvUse)
      total = o.kv_used_share * static_cast<double>(o.allocated);
    else if (metric_ == Metric::GpuUtilization)
      total = o.gpu_compute;
    else if (metric_ == Metric::GpuBusyShare)
      total = o.busy;
    // A total that is a whole multiple of the target needs no extra instance (rounding noise).
    return static_cast<int64_t>(std::ceil(total / target_ - 1e-9));
  }

 private:
  ScalingLimits limits_;
  double target_;
  Metric metric_ = Metric::Running;
};

}  // namespace

LLSIM_REGISTER(Autoscaler, "target", TargetAutoscaler,
               "keep queue length, running sequences or KV use per instance near a target", target_params());

}  // namespace llsim
