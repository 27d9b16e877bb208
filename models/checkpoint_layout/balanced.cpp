// Checkpoint layout `balanced`: the distributed checkpoint strategy, with its three levers as
// separate keys so a planner can switch them one at a time (sim/train/layout_levers.hpp):
//   even_data: true     every replica writes 1/data of its shard
//   io_procs: 8         I/O processes (files) per writing node, 1..64
//   split: true         stripe every file over OSTs, spread requests over all forwarding nodes
//   stripe_count: 0     with split: OSTs per file (0: all)
// Source: the Sunway 10T-parameter checkpoint result of the founding documents (3 h -> 10 min).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.layout={impl: balanced, io_procs: 4}'
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_layout.hpp"
#include "sim/train/layout_levers.hpp"

namespace llsim {

namespace {

const ParamTable kBalancedParams = {
    ParamSpec::flag("even_data", "every data-parallel replica writes 1/data of its shard").defaults("true"),
    ParamSpec::integer("io_procs", "I/O processes per writing node, one file each")
        .defaults("8")
        .at_least(1)
        .at_most(64),
    ParamSpec::flag("split", "stripe each file over OSTs and cut an I/O process's bytes into equal requests (the "
                             "forwarding mapping stays the machine's). A writer's bytes are simulated as pieces of "
                             "at least total / (2 x OSTs): a writer smaller than that is one piece on one OST, and "
                             "split and stripe_count change nothing for it")
        .defaults("true"),
    ParamSpec::integer("stripe_count", "with split: OSTs per file (0: all); see split for small writers")
        .defaults("0")
        .at_least(0),
};

class BalancedLayout : public CheckpointLayout {
 public:
  BalancedLayout(const Params& p, const Context&)
      : levers_{p.flag("even_data"), p.integer("io_procs"), p.flag("split"), p.integer("stripe_count")}
  {}
  IoPlan plan(const ModelState& m, const Parallelism& p, const IoSystem& io) const override
  {
    return plan_checkpoint(levers_, m, p, io);
  }

 private:
  LayoutLevers levers_;
};

}  // namespace

LLSIM_REGISTER(CheckpointLayout, "balanced", BalancedLayout,
               "distributed checkpoint: even data, more I/O processes, split requests", kBalancedParams);

}  // namespace llsim
