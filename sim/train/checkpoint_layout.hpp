// Contract of the checkpoint_layout family (train `checkpoint.layout: {impl: ...}`): pure decision
// logic without SimGrid; the training runtime carries out the plan (sim/train/training_run.hpp).
#pragma once
#include "sim/train/io_plan.hpp"
#include "sim/train/parallelism.hpp"

namespace llsim {

// CheckpointLayout: who writes which bytes through which forwarding node to which OST.
class CheckpointLayout {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "checkpoint_layout";
  static constexpr const char* kHeader        = "sim/train/checkpoint_layout.hpp";
  static constexpr const char* kSelector      = "impl";
  virtual ~CheckpointLayout()                 = default;
  virtual IoPlan plan(const ModelState& model, const Parallelism& parallelism, const IoSystem& io) const = 0;
};

}  // namespace llsim
