// Iteration model `roofline` (docs/phases/serve.md, "Iteration time"): an iteration is
// bound by compute or by memory, whichever takes longer, on the instance's GPUs together
// (tensor parallel, perfect scaling assumed):
//   flop and bytes: sim/serve/cost/batch_cost.hpp
// A dense model's active params are its params; a mixture of experts computes with the experts
// a token reaches but holds, and here reads, all of them (weights = params x dtype_bytes).
// width is heads x head_dim, or d_model when the model does not give heads. flops is the GPU's
// `flops` key (a GPU preset sets it to the dense BF16 peak, whatever dtype_bytes is).
//   time  = max(flop / (GPUs x flops x mfu), bytes / (GPUs x hbm_bandwidth x hbm_efficiency)) + overhead
// Prefill is compute-bound, decode memory-bound. mfu, hbm_efficiency and overhead are
// assumptions: the defaults are typical of published serving measurements, not fitted here.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_single.yaml --set 'phases.chat.iteration={impl: roofline, mfu: 0.5}'
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/serve/cost/batch_cost.hpp"
#include "sim/serve/cost/iteration_model.hpp"

#include <algorithm>

namespace llsim {

namespace {

const ParamTable kRooflineParams = {
    ParamSpec::quantity("mfu", Dimension::Number, "share of peak flops a forward pass reaches (assumption)")
        .defaults("0.5")
        .positive()
        .at_most(1),
    ParamSpec::quantity("hbm_efficiency", Dimension::Number, "share of HBM bandwidth reached (assumption)")
        .defaults("0.8")
        .positive()
        .at_most(1),
    ParamSpec::quantity("overhead", Dimension::Duration,
                        "fixed cost of every iteration: scheduling, kernel launches (assumption)")
        .defaults("0s")
        .at_least(0),
};

class Roofline : public IterationModel {
 public:
  Roofline(const Params& p, const Context& c)
      : model_(c.model)
      , flops_(static_cast<double>(c.gpu.count) * c.gpu.flops * p.quantity("mfu"))
      , hbm_Bps_(static_cast<double>(c.gpu.count) * c.gpu.hbm_Bps * p.quantity("hbm_efficiency"))
      , overhead_s_(p.quantity("overhead"))
  {
    if (c.gpu.flops == 0 || c.gpu.hbm_Bps == 0)
      p.ref().fail("the roofline needs the GPUs' flops and hbm_bandwidth (give both in platform.groups." + c.group +
                   ".gpu, or use the table model)");
    if (!model_.has_shape())
      p.ref().fail(
          "the roofline needs the model's layers and d_model (give them, or a preset, or use the table model)");
    if (c.data_parallel > 1)
      p.ref().fail("the roofline prices an instance's weights and tokens alone; it cannot price MoE layers shared "
                   "by " +
                   std::to_string(c.data_parallel) + " data-parallel ranks (use the operators model with dp)");
  }

  double seconds(const BatchWork& w) const override
  {
    if (w.empty())
      return 0;
    return std::max(compute_s(w), memory_s(w)) + overhead_s_;
  }

  // Whichever of the two terms sets the time; the fixed overhead counts as compute.
  double memory_bound_share(const BatchWork& w) const override
  {
    const double total = seconds(w);
    return total > 0 && memory_s(w) > compute_s(w) ? memory_s(w) / total : 0;
  }

 private:
  double compute_s(const BatchWork& w) const { return batch_flop(model_, w) / flops_; }
  double memory_s(const BatchWork& w) const { return batch_hbm_B(model_, w) / hbm_Bps_; }

  LlmModel model_;
  double flops_, hbm_Bps_, overhead_s_;
};

}  // namespace

LLSIM_REGISTER(IterationModel, "roofline", Roofline,
               "max(compute time, memory time) of the batch on the instance's GPUs", kRooflineParams);

}  // namespace llsim
