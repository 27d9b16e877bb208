// Checkpoint layout `naive`: what a training framework does by default. Data-parallel replica 0
// writes each model-parallel shard whole (so pipeline stage 0, with the embeddings, writes the
// most), one I/O process and one file per writing node, default striping (one OST per file),
// through the node's own forwarding node. No keys. See sim/train/layout_levers.hpp.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.layout={impl: naive}'
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_layout.hpp"
#include "sim/train/layout_levers.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class NaiveLayout : public CheckpointLayout {
 public:
  NaiveLayout(const Params&, const Context&) {}
  IoPlan plan(const ModelState& m, const Parallelism& p, const IoSystem& io) const override
  {
    return plan_checkpoint(LayoutLevers{}, m, p, io);
  }
};

}  // namespace

LLSIM_REGISTER(CheckpointLayout, "naive", NaiveLayout,
               "framework default: replica 0 writes whole shards, one file each", kNoParams);

}  // namespace llsim
