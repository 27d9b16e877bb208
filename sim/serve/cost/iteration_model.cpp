#include "sim/serve/cost/iteration_model.hpp"

#include "sim/serve/cost/gpu_load.hpp"

namespace llsim {

GpuUse IterationModel::gpu_use(const BatchWork& work, double span_s, double iteration_s) const
{
  if (!load_)
    return {span_s, span_s, span_s};
  return {span_s * load_->load(work, iteration_s), span_s * load_->compute_share(work, iteration_s),
          span_s * load_->hbm_share(work, iteration_s)};
}

}  // namespace llsim
