// Journal checkpoint `forward`: the journal is replayed from its oldest record, and each record's
// block is written back to its home location as the record is applied, so a block changed by
// eight records is written eight times (classic write-ahead-log checkpointing, ext4/jbd2-like
// per-transaction write-back).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run scenarios/paper/nvm_journal.yaml --set 'services.mds.journal.checkpoint={impl: forward, every: 8MB}' --set phases.md.workload.files_per_rank=200
#include "sim/core/registry.hpp"
#include "sim/svc/journal_checkpoint.hpp"

namespace llsim {

namespace {

class ForwardReplay : public JournalCheckpoint {
 public:
  ForwardReplay(const Params& p, const Context&)
      : JournalCheckpoint(p)
  {}
  double blocks_written(double records, double) const override { return records; }
};

}  // namespace

LLSIM_REGISTER(JournalCheckpoint, "forward", ForwardReplay, "writes every record's block back, oldest first",
               JournalCheckpoint::params());

}  // namespace llsim
