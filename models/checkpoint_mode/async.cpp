// Checkpoint mode `async`: snapshot() copies each node's state to host memory (training stops
// for the copy only), then persist() writes it to the parallel file system in the background;
// the next checkpoint waits if the previous persist is not done. The snapshot must fit in host
// memory next to training's own use.
//   snapshot_bandwidth: 10GBps   host memory copy rate (assumption: device-to-host over PCIe)
//   memory_share: 0.5           share of a node's memory the snapshot may use
// Source: CheckFreq (FAST'21), snapshot + persist with <= 3.5% overhead.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.mode={impl: async}'
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_mode.hpp"
#include "sim/train/snapshot_room.hpp"

namespace llsim {

namespace {

const ParamTable kAsyncParams = {
    ParamSpec::quantity("snapshot_bandwidth", Dimension::Bandwidth, "copy rate of a node's state to host memory")
        .defaults("10GBps")
        .positive(),
    ParamSpec::quantity("memory_share", Dimension::Number, "share of a node's memory the snapshot may use")
        .defaults("0.5")
        .positive()
        .at_most(1),
};

class AsyncMode : public CheckpointMode {
 public:
  AsyncMode(const Params& p, const Context& c)
      : snapshot_s_(c.node_state_B / p.quantity("snapshot_bandwidth"))
  {
    require_snapshot_room(p, "memory_share", c, c.node_state_B, "a node's snapshot");
  }
  std::vector<CheckpointStep> blocking(int64_t) const override { return {CheckpointStep::pause(snapshot_s_)}; }
  bool background_pfs(int64_t) const override { return true; }

 private:
  double snapshot_s_;
};

}  // namespace

LLSIM_REGISTER(CheckpointMode, "async", AsyncMode, "snapshot to host memory, persist in the background", kAsyncParams);

}  // namespace llsim
