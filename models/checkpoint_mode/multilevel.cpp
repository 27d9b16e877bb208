// Checkpoint mode `multilevel`: SCR-like levels. Every checkpoint is written by each node to its
// own disk (node-local NVM/SSD: the train phase's io.local storage service); with `level: partner` it is also
// copied to a partner node's disk, with `level: xor` a parity share B/(N-1) of an XOR set of N
// goes to the partner. Every `flush_every`-th checkpoint is then written back to the parallel
// file system in the background, out of order and pipelined with training (the cache-style
// parallel checkpoint), so training only waits for the local levels.
// A failed node loses its local copies (it is replaced by a spare): with `single` any lost node
// makes the node-local checkpoint unusable; with `partner` a node's part survives on its partner
// unless both fail; with `xor` an XOR set survives one lost node. Otherwise the job restarts
// from the newest checkpoint on the parallel file system. A flush still in progress when the
// next checkpoint comes makes that checkpoint wait (counted in its blocking time).
//   level: single | partner | xor (default partner)    flush_every: 10    xor_set: 8
// Source: SCR (Moody et al., SC'10): levels SINGLE (B), PARTNER (2B), XOR (B N/(N-1)), flush
// every 10 by default.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.mode={impl: multilevel, level: partner, flush_every: 2}'
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_mode.hpp"

namespace llsim {

namespace {

const ParamTable kMultilevelParams = {
    ParamSpec::text("level", "single | partner | xor").defaults("partner"),
    ParamSpec::integer("flush_every", "write every N-th checkpoint to the parallel file system")
        .defaults("10")
        .at_least(1),
    ParamSpec::integer("xor_set", "nodes per XOR set").defaults("8").at_least(2),
};

class MultilevelMode : public CheckpointMode {
 public:
  MultilevelMode(const Params& p, const Context&)
      : level_(p.text("level"))
      , flush_every_(p.integer("flush_every"))
      , xor_set_(static_cast<double>(p.integer("xor_set")))
  {
    if (level_ != "single" && level_ != "partner" && level_ != "xor")
      p.fail("level", "expected single, partner or xor, got '" + level_ + "'");
  }
  bool needs_local_level() const override { return true; }
  std::vector<CheckpointStep> blocking(int64_t) const override
  {
    std::vector<CheckpointStep> steps = {CheckpointStep::write(IoKind::LocalWrite)};
    if (level_ != "single")
      steps.push_back(CheckpointStep::write(IoKind::PartnerCopy, partner_share()));
    return steps;
  }
  bool background_pfs(int64_t index) const override { return index % flush_every_ == 0; }
  bool reaches_pfs(int64_t index) const override { return index % flush_every_ == 0; }
  std::vector<CheckpointStep> local_recovery() const override
  {
    std::vector<CheckpointStep> steps = {CheckpointStep::write(IoKind::LocalRead)};
    if (level_ != "single")
      steps.push_back(CheckpointStep::write(IoKind::PartnerCopy, partner_share()));  // rebuild the lost parts
    return steps;
  }
  bool local_recoverable(const std::set<size_t>& lost, size_t writers) const override
  {
    if (level_ == "single")
      return lost.empty();
    if (level_ == "partner") {
      for (size_t w : lost)
        if (lost.count((w + 1) % writers) != 0)
          return false;  // a writer and its partner both lost: that part is gone
      return true;
    }
    std::set<size_t> sets;
    for (size_t w : lost)
      if (!sets.insert(w / static_cast<size_t>(xor_set_)).second)
        return false;  // two nodes of one XOR set lost
    return true;
  }
  double local_bytes(double checkpoint_B, int64_t) const override
  {
    return checkpoint_B * (1 + (level_ == "single" ? 0 : partner_share()));
  }

 private:
  // Of a node's part, what goes to the partner: all of it (partner), a parity share (xor).
  double partner_share() const { return level_ == "xor" ? 1.0 / (xor_set_ - 1) : 1.0; }

  std::string level_;
  int64_t flush_every_;
  double xor_set_;
};

}  // namespace

LLSIM_REGISTER(CheckpointMode, "multilevel", MultilevelMode, "node-local levels, background flush every N-th",
               kMultilevelParams);

}  // namespace llsim
