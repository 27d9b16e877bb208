// Checkpoint mode `coordinated`: a global quiesce of all ranks (drain in-flight messages with
// each communication neighbour, then a barrier), then every rank writes in parallel to the
// parallel file system; training waits for both.
//   neighbours: 8          communication neighbours of a rank
//   per_neighbour: 2ms     drain/marker exchange per neighbour (assumption)
//   barrier_step: 20us     per step of a log2(nodes)-step barrier (assumption)
// Source: coordinated checkpointing of MPI jobs on Lustre (founding documents; small overhead).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml --set 'phases.train.checkpoint.mode={impl: coordinated, neighbours: 4}'
#include "sim/core/registry.hpp"
#include "sim/train/checkpoint_mode.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

namespace {

const ParamTable kCoordinatedParams = {
    ParamSpec::integer("neighbours", "communication neighbours of a rank").defaults("8").at_least(0),
    ParamSpec::quantity("per_neighbour", Dimension::Duration, "quiesce cost per neighbour").defaults("2ms").at_least(0),
    ParamSpec::quantity("barrier_step", Dimension::Duration, "one step of the global barrier")
        .defaults("20us")
        .at_least(0),
};

class CoordinatedMode : public CheckpointMode {
 public:
  CoordinatedMode(const Params& p, const Context& c)
  {
    const double steps = std::ceil(std::log2(std::max<double>(2, static_cast<double>(c.nodes.count))));
    quiesce_s_ =
        static_cast<double>(p.integer("neighbours")) * p.quantity("per_neighbour") + steps * p.quantity("barrier_step");
  }
  std::vector<CheckpointStep> blocking(int64_t) const override
  {
    return {CheckpointStep::pause(quiesce_s_), CheckpointStep::write(IoKind::PfsWrite)};
  }

 private:
  double quiesce_s_;
};

}  // namespace

LLSIM_REGISTER(CheckpointMode, "coordinated", CoordinatedMode, "global quiesce, then a parallel write",
               kCoordinatedParams);

}  // namespace llsim
