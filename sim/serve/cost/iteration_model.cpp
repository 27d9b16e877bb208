#include "sim/serve/cost/iteration_model.hpp"

#include "sim/serve/cost/gpu_load.hpp"

namespace llsim {

double IterationModel::gpu_load(const BatchWork& work, double seconds) const
{
  return load_ ? load_->load(work, seconds) : 1;
}

double IterationModel::gpu_utilisation(const BatchWork& work, double seconds) const
{
  return load_ ? load_->utilisation(work, seconds) : 1;
}

}  // namespace llsim
