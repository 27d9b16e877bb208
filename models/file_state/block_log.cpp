// File-state policy `block_log`: every checkpoint saves the blocks written since the previous one
// (block-level logging, BBFC-like).
// No keys; the workload is the train phase's `files:` section. Source: the file-state
// checkpoint algorithms of the founding documents (CAR, SCR, BBFC, virtual file operations, AFS).
#include "models/file_state/changed_blocks.hpp"
#include "sim/core/registry.hpp"

#include <algorithm>

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class BlockLog : public FileStatePolicy {
 public:
  BlockLog(const Params&, const Context&) {}
  double saved_bytes(const FileWorkload& f, double written_B) const override
  {
    return std::min(changed_blocks_B(f, written_B), f.total_B() * (1 - f.read_only_share));
  }
};

}  // namespace

LLSIM_REGISTER(FileStatePolicy, "block_log", BlockLog, "blocks changed since the last checkpoint", kNoParams);

}  // namespace llsim
