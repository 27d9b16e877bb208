#include "sim/serve/engine/steady_decodes.hpp"

#include <algorithm>

namespace llsim {

int64_t steady_decode_steps(const std::vector<Sequence*>& running, const KvBlocks& kv, int64_t at_most)
{
  int64_t k = at_most;
  for (const Sequence* s : running) {
    if (s->computed < s->prompt)
      return 0;
    k = std::min(k, s->a.output_tokens - s->a.generated);
  }
  while (k > 0) {
    int64_t need = 0;
    for (const Sequence* s : running)
      need += std::max<int64_t>(0, kv.blocks_for(s->computed + k) - s->blocks);
    if (need <= kv.free())
      return k;
    k /= 2;
  }
  return 0;
}

BatchWork steady_decode_work(const std::vector<Sequence*>& running, int64_t ahead)
{
  BatchWork w;
  for (const Sequence* s : running)
    w.add_decode(s->computed + ahead);
  return w;
}

double steady_kv_used_share(const std::vector<Sequence*>& running, const KvBlocks& kv, int64_t ahead)
{
  int64_t used = kv.used();
  for (const Sequence* s : running)
    used += std::max<int64_t>(0, kv.blocks_for(s->computed + ahead + 1) - s->blocks);
  return kv.total() > 0 ? static_cast<double>(used) / static_cast<double>(kv.total()) : 0;
}

void advance_steady(const std::vector<Sequence*>& running, KvBlocks& kv, int64_t iteration, int64_t steps,
                    BatchListener& listener)
{
  for (Sequence* s : running) {
    kv.grow(s->blocks, s->computed + steps);
    s->computed += steps;
    s->a.generated += steps;
    add_untold_tokens(*s, iteration, steps, listener);
  }
}

void steady_step_ends(const IterationModel& model, BatchWork first, int64_t steps, double start,
                      std::vector<double>& ends)
{
  ends.clear();
  double t = start;
  for (int64_t j = 0; j < steps; ++j) {
    if (j > 0)
      first.follows_step = true;
    t += model.seconds(first);
    ends.push_back(t);
    first.decode_context += static_cast<double>(first.decodes);
  }
}

SteadyStepsDone steady_steps_done(const std::vector<double>& ends, double now, bool submitted, double fail_at)
{
  const auto steps = static_cast<int64_t>(ends.size());
  SteadyStepsDone r;
  r.done   = submitted ? std::lower_bound(ends.begin(), ends.end(), now - 1e-12) - ends.begin() + 1
                       : std::upper_bound(ends.begin(), ends.end(), now) - ends.begin();
  r.done   = std::min(r.done, steps);
  r.failed = !submitted && r.done < steps;
  for (; r.done > 0 && ends[static_cast<size_t>(r.done - 1)] > fail_at; --r.done)
    r.failed = true;
  return r;
}

}  // namespace llsim
