#include "sim/mw/batch_heuristic.hpp"

#include <algorithm>
#include <limits>

namespace llsim {

std::vector<Assignment> batch_schedule(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers,
                                       double now, BatchRule rule, bool only_free)
{
  const Eigen::MatrixXd etc = expected_times(tasks, workers);
  constexpr double kInf     = std::numeric_limits<double>::infinity();
  std::vector<double> ready(workers.size());
  std::vector<bool> eligible(workers.size());
  for (size_t m = 0; m < workers.size(); ++m) {
    ready[m]    = std::max(now, workers[m].ready_s);
    eligible[m] = !only_free || workers[m].free;
  }
  // best[t]: (minimum completion time, its worker) of unassigned task t over eligible workers.
  std::vector<double> best_ct(tasks.size(), kInf);
  std::vector<size_t> best_worker(tasks.size(), 0);
  // With only free workers, ready times never change: each task's workers are ranked once by
  // completion time (ties: lower index) and its best is the first still eligible.
  std::vector<std::vector<size_t>> ranked;
  std::vector<size_t> next_rank(tasks.size(), 0);
  if (only_free) {
    std::vector<size_t> free;
    for (size_t m = 0; m < workers.size(); ++m)
      if (eligible[m])
        free.push_back(m);
    ranked.assign(tasks.size(), free);
    for (size_t t = 0; t < tasks.size(); ++t)
      std::stable_sort(ranked[t].begin(), ranked[t].end(),
                       [&](size_t a, size_t b) { return ready[a] + etc(t, a) < ready[b] + etc(t, b); });
  }
  const auto refresh = [&](size_t t) {
    best_ct[t] = kInf;
    if (only_free) {
      while (next_rank[t] < ranked[t].size() && !eligible[ranked[t][next_rank[t]]])
        ++next_rank[t];
      if (next_rank[t] < ranked[t].size()) {
        best_worker[t] = ranked[t][next_rank[t]];
        best_ct[t]     = ready[best_worker[t]] + etc(t, best_worker[t]);
      }
      return;
    }
    for (size_t m = 0; m < workers.size(); ++m)
      if (eligible[m] && ready[m] + etc(t, m) < best_ct[t]) {
        best_ct[t]     = ready[m] + etc(t, m);
        best_worker[t] = m;
      }
  };
  std::vector<bool> assigned(tasks.size(), false);
  for (size_t t = 0; t < tasks.size(); ++t)
    refresh(t);

  std::vector<Assignment> out;
  while (out.size() < tasks.size()) {
    size_t chosen = tasks.size();
    for (size_t t = 0; t < tasks.size(); ++t) {
      if (assigned[t] || best_ct[t] == kInf)
        continue;
      const bool better = chosen == tasks.size() ||
                          (rule == BatchRule::MinMin ? best_ct[t] < best_ct[chosen] : best_ct[t] > best_ct[chosen]);
      if (better)
        chosen = t;
    }
    if (chosen == tasks.size())
      break;  // no eligible worker left
    const size_t m = best_worker[chosen];
    out.push_back({chosen, m});
    assigned[chosen] = true;
    ready[m]         = best_ct[chosen];
    if (only_free)
      eligible[m] = false;
    // Only tasks whose best worker was m can have a different best now (m got later, others unchanged).
    for (size_t t = 0; t < tasks.size(); ++t)
      if (!assigned[t] && best_worker[t] == m)
        refresh(t);
  }
  return out;
}

}  // namespace llsim
