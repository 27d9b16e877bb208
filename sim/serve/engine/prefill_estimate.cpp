#include "sim/serve/engine/prefill_estimate.hpp"

#include "sim/serve/cost/iteration_model.hpp"
#include "sim/serve/engine/batcher.hpp"

namespace llsim {

double prefill_seconds(const IterationModel& model, int64_t tokens, int64_t context)
{
  if (tokens <= 0)
    return 0;
  BatchWork w;
  w.add_prefill(context, tokens);
  return model.seconds(w);
}

double queued_prefill_seconds(const IterationModel& model, const Batcher& batcher)
{
  double s = 0;
  batcher.for_each_unfinished_prompt(
      [&](int64_t context, int64_t tokens) { s += prefill_seconds(model, tokens, context); });
  return s;
}

}  // namespace llsim
