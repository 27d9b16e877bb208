// Contract of a journal checkpoint model (registry "journal_checkpoint", chosen with `impl:` under
// a metadata service's `journal.checkpoint:`): how many home blocks a checkpoint writes for the
// records it applies. Pure logic. Both kinds read the whole journal interval once.
// Every model takes `every`, the journal bytes between two checkpoints.
#pragma once
#include "sim/core/params.hpp"

namespace llsim {

class JournalCheckpoint {
 public:
  struct Context {};
  static constexpr const char* kInterfaceName = "journal_checkpoint";
  static constexpr const char* kHeader        = "sim/svc/journal_checkpoint.hpp";
  static constexpr const char* kSelector      = "impl";

  static const ParamTable& params();  // `every`: the keys of every model
  explicit JournalCheckpoint(const Params& p)
      : every_B_(p.quantity("every"))
  {}
  virtual ~JournalCheckpoint() = default;
  double every_B() const { return every_B_; }
  // Home blocks written to apply `records` records that changed `distinct_blocks` blocks.
  virtual double blocks_written(double records, double distinct_blocks) const = 0;

 private:
  double every_B_;
};

}  // namespace llsim
