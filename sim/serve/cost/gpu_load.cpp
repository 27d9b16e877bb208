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

GpuLoad::Shares GpuLoad::shares(const BatchWork& work, double seconds) const
{
  if (!model_.has_shape() || flops_ == 0 || hbm_Bps_ == 0 || !(seconds > 0))
    return {};
  return {std::min(1.0, batch_flop(model_, work) / flops_ / seconds),
          std::min(1.0, batch_hbm_B(model_, work) / hbm_Bps_ / seconds)};
}

double GpuLoad::load_at(double utilisation) const
{
  if (!power_)
    return utilisation;
  return (power_->at(utilisation) - power_->idle_W()) / (power_->full_W() - power_->idle_W());
}

}  // namespace llsim
