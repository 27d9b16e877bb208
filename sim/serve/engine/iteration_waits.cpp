#include "sim/serve/engine/iteration_waits.hpp"

#include "sim/sg/wait_ledger.hpp"

#include <cmath>

namespace llsim {

void charge_iteration_waits(const IterationModel* model, const BatchWork& work, double seconds)
{
  const double waited           = seconds * static_cast<double>(work.decodes + work.prefills);
  static const WaitResource gpu = wait_resource("GPU"), hbm = wait_resource("GPU: HBM bandwidth"),
                            compute = wait_resource("GPU: compute");
  const double memory               = model != nullptr ? model->memory_bound_share(work) : NAN;
  if (std::isnan(memory)) {
    charge_wait(gpu, waited);
    return;
  }
  charge_wait(hbm, memory * waited);
  charge_wait(compute, (1 - memory) * waited);
}

}  // namespace llsim
