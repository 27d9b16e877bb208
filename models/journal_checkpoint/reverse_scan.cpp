// Journal checkpoint `reverse_scan`: the journal is scanned from its newest record backwards and
// each block is written home once, with its newest version; older records of a block already
// written are skipped. This is the checkpointing of the NVM-journal design the founding documents
// cite (a log on byte-addressable NVM scanned in reverse, so home writes are one per changed
// block rather than one per record).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run scenarios/paper/nvm_journal.yaml --set 'services.mds.journal.checkpoint={impl: reverse_scan, every: 8MB}' --set phases.md.workload.files_per_rank=200
#include "sim/core/registry.hpp"
#include "sim/svc/journal_checkpoint.hpp"

namespace llsim {

namespace {

class ReverseScan : public JournalCheckpoint {
 public:
  ReverseScan(const Params& p, const Context&)
      : JournalCheckpoint(p)
  {}
  double blocks_written(double, double distinct_blocks) const override { return distinct_blocks; }
};

}  // namespace

LLSIM_REGISTER(JournalCheckpoint, "reverse_scan", ReverseScan,
               "scans from the newest record and writes each changed block once", JournalCheckpoint::params());

}  // namespace llsim
