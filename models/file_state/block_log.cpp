// File-state policy `block_log`: every checkpoint saves what was written since the previous one
// (block-level logging, BBFC-like): appended bytes as they are, overwritten bytes as the whole
// blocks they touch; never more than the files that are ever written.
// No keys; the workload is the train phase's `files:` section. Source: the file-state
// checkpoint algorithms of the founding documents (CAR, SCR, BBFC, virtual file operations, AFS).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.files={count: 8, size: 1GB, write_rate: 10MBps, append: 0.8}' --set 'phases.train.checkpoint.file_state={impl: block_log}'
#include "models/file_state/changed_blocks.hpp"
#include "sim/core/registry.hpp"

#include <algorithm>

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class BlockLog : public FileStatePolicy {
 public:
  BlockLog(const Params&, const Context&) {}
  double saved_B(const FileWorkload& f, double written_B) const override
  {
    const double logged = written_B * f.append_share + changed_blocks_B(f, written_B * f.overwrite_share());
    return std::min(logged, f.total_B() * (1 - f.read_only_share));
  }
};

}  // namespace

LLSIM_REGISTER(FileStatePolicy, "block_log", BlockLog, "blocks changed since the last checkpoint", kNoParams);

}  // namespace llsim
