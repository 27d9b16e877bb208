// Autoscaler `schedule`: a time table of instance counts, from the phase's start:
//   autoscale: {impl: schedule, table: [{at: 0s, instances: 2}, {at: 10min, instances: 6}]}
// Each entry holds from its time to the next; before the first, `min`. Decisions come every
// `period`, and the governor's cooldown and scale-down delay apply (sim/serve/scaling/autoscaler.hpp).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/autoscale.yaml --set 'phases.chat.autoscale={impl: schedule, table: [{at: 0s, instances: 2}]}'
#include "sim/core/registry.hpp"
#include "sim/serve/scaling/autoscaler.hpp"

#include <vector>

namespace llsim {

namespace {

const ParamTable& entry_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("at", Dimension::Duration, "from the phase's start").at_least(0),
      ParamSpec::integer("instances", "instances to allocate from then on").at_least(0),
  };
  return t;
}

const ParamTable& schedule_params()
{
  static const ParamTable t = [] {
    ParamTable own = {ParamSpec::list("table", "[{at, instances}] in time order").with_fields(entry_params())};
    own.insert(own.end(), scaling_params().begin(), scaling_params().end());
    return own;
  }();
  return t;
}

class ScheduleAutoscaler : public Autoscaler {
 public:
  ScheduleAutoscaler(const Params& p, const Context& c)
      : limits_(parse_scaling_limits(p, c.instances))
  {
    const YamlRef list = p.raw("table");
    if (!list.node().IsSequence() || list.node().size() == 0)
      list.fail("expected a list of {at, instances} in time order");
    for (size_t i = 0; i < list.node().size(); ++i) {
      const Params e(list.item(i), entry_params());
      const double at = e.quantity("at");
      if (!table_.empty() && at <= table_.back().first)
        e.fail("at", "entries must be in increasing time order");
      table_.emplace_back(at, e.integer("instances"));
    }
  }
  const ScalingLimits& limits() const override { return limits_; }
  int64_t initial() const override { return count_at(0); }
  int64_t propose(const ScaleObservation& o) override { return count_at(o.now_s); }

 private:
  // `now_s` from the phase's start.
  int64_t count_at(double now_s) const
  {
    int64_t n = limits_.min;
    for (const auto& [at, count] : table_)
      if (at <= now_s)
        n = count;
    return n;
  }

  ScalingLimits limits_;
  std::vector<std::pair<double, int64_t>> table_;
};

}  // namespace

LLSIM_REGISTER(Autoscaler, "schedule", ScheduleAutoscaler, "instance counts from a time table", schedule_params());

}  // namespace llsim
