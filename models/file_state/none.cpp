// File-state policy `none`: nothing is saved; a rollback leaves the files ahead of the restored
// process (counted as an inconsistent rollback).
// No keys; the workload is the train phase's `files:` section. Source: the file-state
// checkpoint algorithms of the founding documents (CAR, SCR, BBFC, virtual file operations, AFS).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.file_state={impl: none}'
#include "sim/core/registry.hpp"
#include "sim/train/file_state.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class NoFileState : public FileStatePolicy {
 public:
  NoFileState(const Params&, const Context&) {}
  double saved_B(const FileWorkload&, double) const override { return 0; }
  bool inconsistent_on_rollback() const override { return true; }
};

}  // namespace

LLSIM_REGISTER(FileStatePolicy, "none", NoFileState, "rollback leaves files inconsistent", kNoParams);

}  // namespace llsim
