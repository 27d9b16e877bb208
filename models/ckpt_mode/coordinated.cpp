// Checkpoint mode `coordinated`: a global quiesce of all ranks (drain in-flight messages with
// each communication neighbour, then a barrier), then every rank writes in parallel to the
// parallel file system; training waits for both.
//   neighbours: 8          communication neighbours of a rank
//   per_neighbour: 2ms     drain/marker exchange per neighbour (assumption)
//   barrier_step: 20us     per step of a log2(nodes)-step barrier (assumption)
// Source: coordinated checkpointing of MPI jobs on Lustre (founding documents; small overhead).
#include "sim/core/registry.hpp"
#include "sim/train/interfaces.hpp"

#include <cmath>

namespace llsim {

namespace {

const ParamTable kCoordinatedParams = {
    ParamSpec::integer("neighbours", "communication neighbours of a rank").defaults("8").at_least(0),
    ParamSpec::quantity("per_neighbour", Dimension::Duration, "quiesce cost per neighbour").defaults("2ms").at_least(0),
    ParamSpec::quantity("barrier_step", Dimension::Duration, "one step of the global barrier").defaults("20us").at_least(0),
};

class CoordinatedMode : public CheckpointMode {
 public:
  CoordinatedMode(const Params& p, const Context&)
      : neighbours_(static_cast<double>(p.integer("neighbours")))
      , per_neighbour_s_(p.quantity("per_neighbour"))
      , barrier_step_s_(p.quantity("barrier_step"))
  {
  }
  double blocking_s(const CheckpointCosts& c, int64_t) const override
  {
    const double steps = std::ceil(std::log2(std::max<double>(2, static_cast<double>(c.nodes))));
    return neighbours_ * per_neighbour_s_ + steps * barrier_step_s_ + c.pfs_write_s;
  }
  double background_s(const CheckpointCosts&, int64_t) const override { return 0; }

 private:
  double neighbours_, per_neighbour_s_, barrier_step_s_;
};

}  // namespace

LLSIM_REGISTER(CheckpointMode, "coordinated", CoordinatedMode, "global quiesce, then a parallel write",
               kCoordinatedParams);

}  // namespace llsim
