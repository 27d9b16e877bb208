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

bool GpuLoad::can_tell(double seconds) const
{
  return model_.has_shape() && flops_ > 0 && hbm_Bps_ > 0 && seconds > 0;
}

double GpuLoad::utilisation(const BatchWork& work, double seconds) const
{
  return std::max(compute_share(work, seconds), hbm_share(work, seconds));
}

double GpuLoad::compute_share(const BatchWork& work, double seconds) const
{
  return can_tell(seconds) ? std::min(1.0, batch_flop(model_, work) / flops_ / seconds) : 1;
}

double GpuLoad::hbm_share(const BatchWork& work, double seconds) const
{
  return can_tell(seconds) ? std::min(1.0, batch_hbm_B(model_, work) / hbm_Bps_ / seconds) : 1;
}

double GpuLoad::load(const BatchWork& work, double seconds) const
{
  const double u = utilisation(work, seconds);
  if (!power_)
    return u;
  return (power_->at(u) - power_->idle_W()) / (power_->full_W() - power_->idle_W());
}

}  // namespace llsim
