// Checkpoint mode `multilevel`: SCR-like levels, with an optional host-memory tier in front.
// - Node-local level: each node writes the checkpoint to its own disk (node-local NVM/SSD: the
//   train phase's io.local storage service); with `level: partner` it is also copied to a partner
//   node's disk (`partner_offset` writers on: more than the hosts under one switch keeps a switch
//   failure from taking a node and its partner); with `level: xor` a parity share B/(N-1) of an
//   XOR set of N goes to the partner. Training waits for these writes.
// - Every `flush_every`-th checkpoint is then written back to the parallel file system in the
//   background, out of order and pipelined with training (the cache-style parallel checkpoint).
//   A flush still in progress when the next checkpoint comes makes that checkpoint wait (counted
//   in its blocking time).
// - `memory: partner` adds a tier in host memory (as Gemini, SOSP'23): every checkpoint copies
//   each node's state to its own host memory (training waits state / snapshot_bandwidth), then
//   to its partner node's memory in the background (state / partner_bandwidth); the node-local
//   level is then written every `local_every`-th checkpoint only. A snapshot is usable once its
//   partner copies are over; the next checkpoint waits for them. Each node keeps its newest
//   usable snapshot and its partner's while the next is taken: 4 x its state must fit in
//   memory_share of its memory.
// A failed node loses its host memory and its local disks (it is replaced by a spare). A restart
// restores the newest checkpoint that survives, from the nearest tier: the memory tier when no
// node and its partner were both lost since the snapshot (2 x state / partner_bandwidth: a
// replaced node gets its own part and the copy it held, then state / snapshot_bandwidth back to
// the devices); the node-local
// level with `single` when no node was lost, with `partner` unless a node and its partner were,
// with `xor` unless two nodes of one XOR set were; else the parallel file system.
//   level: single | partner | xor (default partner)    flush_every: 10    xor_set: 8
//   partner_offset: 1 (node w's partner is node w + offset of the writers, wrapping around)
//   memory: none | partner (default none)    local_every: 1    snapshot_bandwidth: 10GBps
//   partner_bandwidth: 25GBps    memory_share: 0.5
// Sources: SCR (Moody et al., SC'10): levels SINGLE (B), PARTNER (2B), XOR (B N/(N-1)), flush
// every 10 by default. Gemini (Wang et al., SOSP'23): checkpoints in the host memory of the node
// and of a peer, restored from there unless both are lost. snapshot_bandwidth (device to host
// over PCIe) and partner_bandwidth (one 200 Gb/s NIC) are assumptions.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.mode={impl: multilevel, level: partner, flush_every: 2}'
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_mode.hpp"
#include "sim/train/snapshot_room.hpp"

namespace llsim {

namespace {

const ParamTable kMultilevelParams = {
    ParamSpec::one_of("level", {"single", "partner", "xor"},
                      "the node-local level's redundancy: single, partner or xor")
        .defaults("partner"),
    ParamSpec::integer("flush_every", "write every N-th checkpoint to the parallel file system")
        .defaults("10")
        .at_least(1),
    ParamSpec::integer("xor_set", "nodes per XOR set").defaults("8").at_least(2),
    ParamSpec::integer("partner_offset", "writers between a node and the partner holding its copies (more than the "
                                         "hosts under one switch: a switch failure cannot take both)")
        .defaults("1")
        .at_least(1),
    ParamSpec::one_of("memory", {"none", "partner"},
                      "a host-memory tier: none, or partner (each node's snapshot copied to its partner's memory)")
        .defaults("none"),
    ParamSpec::integer("local_every", "write every N-th checkpoint to the node-local level (N > 1 needs memory)")
        .defaults("1")
        .at_least(1),
    ParamSpec::quantity("snapshot_bandwidth", Dimension::Bandwidth,
                        "memory tier: copy rate of a node's state to its host memory and back")
        .defaults("10GBps")
        .positive(),
    ParamSpec::quantity("partner_bandwidth", Dimension::Bandwidth,
                        "memory tier: copy rate of a node's snapshot to its partner's memory and back")
        .defaults("25GBps")
        .positive(),
    ParamSpec::quantity("memory_share", Dimension::Number,
                        "memory tier: share of a node's memory its snapshots and its partner's may use")
        .defaults("0.5")
        .positive()
        .at_most(1),
};

MemoryTier memory_tier_of(const Params& p, const CheckpointMode::Context& c)
{
  if (p.text("memory") == "none") {
    for (const char* key : {"snapshot_bandwidth", "partner_bandwidth", "memory_share"})
      if (p.has(key))
        p.fail(key, std::string(key) + " applies to the memory tier only: add memory: partner");
    if (p.integer("local_every") > 1)
      p.fail("local_every", "without the memory tier every checkpoint is node-local: add memory: partner");
    return {};
  }
  require_snapshot_room(p, "memory_share", c, 4 * c.node_state_B,
                        "4 x a node's state (its newest two snapshots and its partner's)");
  return {true, c.node_state_B / p.quantity("snapshot_bandwidth"), c.node_state_B / p.quantity("partner_bandwidth")};
}

class MultilevelMode : public CheckpointMode {
 public:
  MultilevelMode(const Params& p, const Context& c)
      : level_(p.text("level"))
      , flush_every_(p.integer("flush_every"))
      , xor_set_(static_cast<double>(p.integer("xor_set")))
      , local_every_(p.integer("local_every"))
      , partner_offset_(static_cast<size_t>(p.integer("partner_offset")))
      , memory_(memory_tier_of(p, c))
  {}
  bool needs_local_level() const override { return true; }
  bool writes_local(int64_t index) const override { return index % local_every_ == 0; }
  MemoryTier memory_tier() const override { return memory_; }
  size_t partner_offset() const override { return partner_offset_; }
  std::vector<CheckpointStep> blocking(int64_t index) const override
  {
    std::vector<CheckpointStep> steps;
    if (memory_.on)
      steps.push_back(CheckpointStep::pause(memory_.snapshot_s));
    if (!writes_local(index))
      return steps;
    steps.push_back(CheckpointStep::write(IoKind::LocalWrite));
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
    if (level_ == "partner")
      return partners_survive(lost, writers, partner_offset_);
    std::set<size_t> sets;
    for (size_t w : lost)
      if (!sets.insert(w / static_cast<size_t>(xor_set_)).second)
        return false;  // two nodes of one XOR set lost
    return true;
  }
  double local_B(double checkpoint_B, int64_t index) const override
  {
    if (!writes_local(index))
      return 0;
    return checkpoint_B * (1 + (level_ == "single" ? 0 : partner_share()));
  }

 private:
  // Of a node's part, what goes to the partner: all of it (partner), a parity share (xor).
  double partner_share() const { return level_ == "xor" ? 1.0 / (xor_set_ - 1) : 1.0; }

  std::string level_;
  int64_t flush_every_;
  double xor_set_;
  int64_t local_every_;
  size_t partner_offset_;
  MemoryTier memory_;
};

}  // namespace

LLSIM_REGISTER(CheckpointMode, "multilevel", MultilevelMode,
               "host memory (optional), node-local levels, background flush every N-th", kMultilevelParams);

}  // namespace llsim
