// Checkpoint mode `blocking`: training stops while the whole checkpoint is written to the
// parallel file system. No keys.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.mode={impl: blocking}'
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_mode.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class BlockingMode : public CheckpointMode {
 public:
  BlockingMode(const Params&, const Context&) {}
  std::vector<CheckpointStep> blocking(int64_t) const override { return {CheckpointStep::write(IoKind::PfsWrite)}; }
};

}  // namespace

LLSIM_REGISTER(CheckpointMode, "blocking", BlockingMode, "training waits for the parallel-file-system write",
               kNoParams);

}  // namespace llsim
