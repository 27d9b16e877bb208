// Runs an autoscaling policy (autoscaler.hpp) on a serving system's instances: an actor that,
// every `period` of the phase, observes the allocated instances, asks the policy for a count,
// lets the governor bound it (scaling_governor.hpp) and allocates or releases instances:
// - to grow, it takes back first the released instances still finishing their requests (they
//   kept their GPUs: no cold start), then those that gave them back and whose host is up, lowest
//   index first: a cold start (provisioning, then the weight load);
// - to shrink, it releases first the instances not serving yet (their start is abandoned), then
//   the least loaded, highest index first.
// Each decision and cold start goes to the tally.
#pragma once
#include "sim/core/work_limits.hpp"
#include "sim/serve/engine/instance_set.hpp"
#include "sim/serve/scaling/autoscaler.hpp"
#include "sim/serve/scaling/scale_tally.hpp"
#include "sim/serve/scaling/scaling_governor.hpp"
#include "sim/sg/actors.hpp"

#include <memory>
#include <vector>

namespace llsim {

class WaitPoint;

class ScalingDriver {
 public:
  ScalingDriver(Autoscaler& policy, InstanceSet& instances, ServeEnv& env, ScaleTally& tally);
  ~ScalingDriver();
  // The instances allocated at the start: the policy's initial count within [min, max] (the
  // others start released, ServeEnv::allocated_at_start).
  static int64_t initial(const Autoscaler& policy);
  // Inside the simulation, after the instances started: starts deciding.
  void start();
  void stop();  // no more decisions; returns when the actor has ended

 private:
  void loop();
  ScaleObservation observe();  // and remembers the busy seconds seen
  void apply(int64_t decided);

  Autoscaler& policy_;
  InstanceSet& instances_;
  ServeEnv& env_;
  ScaleTally& tally_;
  ScalingGovernor governor_;
  WorkCounter decisions_;
  double start_s_ = 0;
  std::vector<double> busy_seen_, work_seen_;  // each instance's busy and compute seconds at the last decision
  bool stopped_ = false;
  std::unique_ptr<WaitPoint> wake_;
  Actor actor_;
};

}  // namespace llsim
