#include "sim/serve/cost/gpu_load.hpp"

#include "sim/serve/cost/batch_cost.hpp"

#include <algorithm>

namespace llsim {

GpuLoad::GpuLoad(const LlmModel& model, const GpuSpec& stage)
    : model_(model)
    , flops_(static_cast<double>(stage.count) * stage.flops)
    , hbm_Bps_(static_cast<double>(stage.count) * stage.hbm_Bps)
    , power_(stage.power_curve)
{}

double GpuLoad::utilisation(const BatchWork& work, double seconds) const
{
  if (!model_.has_shape() || flops_ == 0 || hbm_Bps_ == 0 || !(seconds > 0))
    return 1;
  const double needed = std::max(batch_flop(model_, work) / flops_, batch_hbm_B(model_, work) / hbm_Bps_);
  return std::min(1.0, needed / seconds);
}

double GpuLoad::load(const BatchWork& work, double seconds) const
{
  const double u = utilisation(work, seconds);
  if (!power_)
    return u;
  return (power_->at(u) - power_->idle_W()) / (power_->full_W() - power_->idle_W());
}

}  // namespace llsim
