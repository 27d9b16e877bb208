// File-state policy `full_copy`: every checkpoint copies every file whole (CAR-like).
// No keys; the workload is the train phase's `files:` section. Source: the file-state
// checkpoint algorithms of the founding documents (CAR, SCR, BBFC, virtual file operations, AFS).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.files={count: 8, size: 1GB, write_rate: 10MBps, append: 0.8}' --set 'phases.train.checkpoint.file_state={impl: full_copy}'
#include "sim/core/registry.hpp"
#include "sim/train/file_state.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class FullCopy : public FileStatePolicy {
 public:
  FullCopy(const Params&, const Context&) {}
  double saved_B(const FileWorkload& f, double) const override { return f.total_B(); }
};

}  // namespace

LLSIM_REGISTER(FileStatePolicy, "full_copy", FullCopy, "copy every file", kNoParams);

}  // namespace llsim
