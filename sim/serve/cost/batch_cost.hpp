// The work of one iteration in the units a GPU's peaks are given in, shared by the roofline
// iteration model and the GPU load of the energy accounting (gpu_load.hpp):
//   flop  = 2 x active params x (prefill tokens + decodes) + 4 x layers x width x attention pairs
//   bytes = weights + KV bytes per token x (context tokens the batch reads and writes)
#pragma once
#include "sim/serve/cost/iteration_model.hpp"

namespace llsim {

inline double batch_flop(const LlmModel& m, const BatchWork& w)
{
  const double tokens = static_cast<double>(w.prefill_tokens + w.decodes);
  const double pairs  = w.prefill_pairs + w.decode_context;
  return 2 * m.active_params() * tokens +
         4.0 * static_cast<double>(m.layers) * static_cast<double>(m.attention_width()) * pairs;
}

inline double batch_hbm_B(const LlmModel& m, const BatchWork& w)
{
  return m.weight_B() + m.kv_B_per_token * (w.prefill_kv_tokens + w.decode_context);
}

}  // namespace llsim
