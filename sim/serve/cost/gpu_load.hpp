// How hard an iteration works its GPUs, for their power draw (sim/accounting/bill.hpp): the share of the
// iteration's time the busier of compute and HBM bandwidth would need at peak,
//
//   utilisation = min(1, max(flop / (GPUs x flops), bytes / (GPUs x hbm_bandwidth)) / seconds)
//
// with flop and bytes from sim/serve/cost/batch_cost.hpp and GPUs the instance's tensor-parallel ones
// (with pipeline stages, each engine is an instance on one stage's GPUs, timed by the iteration
// models as running the whole model there, so its load is counted there too). A GPU then draws
// idle + (tdp - idle) x utilisation, or what a measured power_table gives at that utilisation
// (sim/platform/gpu_power_curve.hpp). The linear law and the A100's fitted idle are checked
// against Splitwise's measured power in docs/results/gpu_power.md. Without the model's shape, or
// without both peaks, the GPUs count as fully used while busy.
#pragma once
#include "sim/platform/gpu_power_curve.hpp"
#include "sim/platform/gpu_spec.hpp"
#include "sim/serve/cost/iteration_model.hpp"

namespace llsim {

class GpuLoad {
 public:
  // `stage`: one pipeline stage's GPUs (count: the tensor-parallel degree).
  GpuLoad(const LlmModel& model, const GpuSpec& stage);
  // The utilisation's two terms: min(1, flop / (GPUs x flops) / seconds), and the same for HBM
  // bytes; both 1 when it cannot tell (see above) or when seconds is 0.
  struct Shares {
    double compute = 1, hbm = 1;
    double busier() const { return compute > hbm ? compute : hbm; }
  };
  Shares shares(const BatchWork& work, double seconds) const;
  // In [0, 1]: the busier share.
  double utilisation(const BatchWork& work, double seconds) const { return shares(work, seconds).busier(); }
  // The share of (tdp - idle) the GPUs draw above idle at `utilisation`: the utilisation under the
  // linear law; (power(utilisation) - idle) / (tdp - idle) with a measured power_table.
  double load_at(double utilisation) const;

 private:
  LlmModel model_;
  double flops_, hbm_Bps_;  // all the instance's GPUs together; 0: not given
  std::shared_ptr<const GpuPowerCurve> power_;
};

}  // namespace llsim
