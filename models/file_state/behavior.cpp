// File-state policy `behavior`: by access behaviour: an appended file saves its length (8 B), an
// overwritten file its changed blocks, a read-only file nothing (virtual file operations).
// No keys; the workload is the train phase's `files:` section. Source: the file-state
// checkpoint algorithms of the founding documents (CAR, SCR, BBFC, virtual file operations, AFS).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.files={count: 8, size: 1GB, write_rate: 10MBps, append: 0.8}' --set 'phases.train.checkpoint.file_state={impl: behavior}'
#include "models/file_state/changed_blocks.hpp"
#include "sim/core/registry.hpp"

#include <algorithm>

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class ByBehavior : public FileStatePolicy {
 public:
  ByBehavior(const Params&, const Context&) {}
  double saved_B(const FileWorkload& f, double written_B) const override
  {
    const double written_files = static_cast<double>(f.count) * (1 - f.read_only_share);
    return written_files * 8 + changed_blocks_B(f, written_B * f.overwrite_share());
  }
};

}  // namespace

LLSIM_REGISTER(FileStatePolicy, "behavior", ByBehavior, "offsets for appends, blocks for overwrites", kNoParams);

}  // namespace llsim
