// Task checkpointing `none`: nothing is saved; a task lost to a failure restarts from scratch on
// whichever worker gets it next. No keys.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_unreliable.yaml --set 'phases.bag.checkpoint={impl: none}'
#include "sim/core/registry.hpp"
#include "sim/mw/task_checkpointing.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class NoCheckpointing : public TaskCheckpointing {
 public:
  NoCheckpointing(const Params&, const Context&) {}
  CheckpointStore store() const override { return CheckpointStore::None; }
  bool can_resume(const SavedCheckpoint&, size_t) const override { return false; }
};

}  // namespace

LLSIM_REGISTER(TaskCheckpointing, "none", NoCheckpointing, "no checkpoints: restart from scratch", kNoParams);

}  // namespace llsim
