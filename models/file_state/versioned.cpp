// File-state policy `versioned`: session semantics (recovery-free AFS-like): every close keeps a
// version, so nothing is rolled back or saved at checkpoints; the versions cost their written
// bytes.
// No keys; the workload is the train phase's `files:` section. Source: the file-state
// checkpoint algorithms of the founding documents (CAR, SCR, BBFC, virtual file operations, AFS).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.files={count: 8, size: 1GB, write_rate: 10MBps, append: 0.8}' --set 'phases.train.checkpoint.file_state={impl: versioned}'
#include "sim/core/registry.hpp"
#include "sim/train/file_state.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class Versioned : public FileStatePolicy {
 public:
  Versioned(const Params&, const Context&) {}
  double saved_B(const FileWorkload&, double) const override { return 0; }
  double kept_B(const FileWorkload&, double written_B) const override { return written_B; }
};

}  // namespace

LLSIM_REGISTER(FileStatePolicy, "versioned", Versioned, "versions kept at close", kNoParams);

}  // namespace llsim
