#include "sim/serve/cost/iteration_model.hpp"

#include "sim/serve/cost/gpu_load.hpp"

namespace llsim {

GpuUse IterationModel::gpu_use(const BatchWork& work, double span_s, double iteration_s) const
{
  if (!load_)
    return {span_s, span_s, span_s};
  const GpuLoad::Shares shares = load_->shares(work, iteration_s);  // the batch's flop and bytes, once
  return {span_s * load_->load_at(shares.busier()), span_s * shares.compute, span_s * shares.hbm};
}

}  // namespace llsim
