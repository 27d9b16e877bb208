// Contract of the checkpoint_policy family (train `checkpoint.policy: {impl: ...}`): pure decision
// logic without SimGrid.
#pragma once

namespace llsim {

// CheckpointPolicy: compute time between two checkpoints, given the blocking cost C of one
// checkpoint (the mean blocking time measured so far; 0 before the first checkpoint), the job's
// mean time between failures M, and the iteration time.
class CheckpointPolicy {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "checkpoint_policy";
  static constexpr const char* kHeader        = "sim/train/checkpoint_policy.hpp";
  static constexpr const char* kSelector      = "impl";
  virtual ~CheckpointPolicy()                 = default;
  virtual double interval_s(double cost_s, double job_mtbf_s, double iteration_s) const = 0;
};

}  // namespace llsim
