#include "sim/study/plan_search.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace llsim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

class Search {
 public:
  Search(const std::vector<size_t>& sizes, const std::vector<AxisShape>& shapes, const PointEvaluate& evaluate)
      : sizes_(sizes)
      , evaluate_(evaluate)
  {
    for (size_t a = 0; a < sizes.size(); ++a) {
      if (sizes[a] == 0)
        throw std::invalid_argument("an axis without values");
      if (shapes[a] == AxisShape::Monotone)
        monotone_.push_back(a);
      else if (unimodal_ < 0)
        unimodal_ = static_cast<int>(a);
      else
        throw std::invalid_argument("at most one --unimodal axis");
    }
  }

  PlanAnswer run()
  {
    PointIndex point(sizes_.size(), 0);
    if (unimodal_ < 0)
      best_over_monotone(point);
    else
      golden(point);
    return answer_;
  }

  // Remembers every evaluation for the answer.
  PointScore score(const PointIndex& p)
  {
    const PointScore s = evaluate_(p);
    if (s.meets) {
      if (!answer_.feasible || s.objective < best_objective_ || (s.objective == best_objective_ && p < answer_.best)) {
        answer_         = {true, p};
        best_objective_ = s.objective;
      }
    } else if (!answer_.feasible && (answer_.best.empty() || s.shortfall < best_shortfall_ ||
                                     (s.shortfall == best_shortfall_ && p < answer_.best))) {
      answer_.best    = p;
      best_shortfall_ = s.shortfall;
    }
    return s;
  }

  const PlanAnswer& answer() const { return answer_; }

 private:
  // How good the monotone axes can make `point` (the other axes as given), as (0, lowest objective
  // of a point that meets the targets) or, when none does, (1, least shortfall): lower is better.
  using Rank = std::pair<int, double>;
  Rank best_over_monotone(PointIndex point)
  {
    if (monotone_.empty()) {
      const PointScore s = score(point);
      return s.meets ? Rank{0, s.objective} : Rank{1, s.shortfall};
    }
    for (size_t a : monotone_)
      point[a] = sizes_[a] - 1;
    const PointScore corner = score(point);
    if (!corner.meets)
      return {1, corner.shortfall};  // the most capable corner misses: so does everything below it
    const size_t last = monotone_.back();
    const size_t n    = sizes_[last];
    std::vector<size_t> outer(monotone_.begin(), monotone_.end() - 1);
    std::map<PointIndex, size_t> first_meeting;  // per outer combination: the last axis's first value (n: none)
    double best = kInf;
    PointIndex combo(outer.size(), 0);
    while (true) {
      size_t lo = 0, hi = n;
      for (const auto& [other, m] : first_meeting) {
        if (dominates(combo, other))
          hi = std::min(hi, m);
        if (dominates(other, combo))
          lo = std::max(lo, m);
      }
      for (size_t k = 0; k < outer.size(); ++k)
        point[outer[k]] = combo[k];
      // Bisection for the first value meeting the targets in [lo, hi]; hi itself meets (hi < n)
      // or stands for none.
      double below = -kInf;  // the highest objective seen below the first value that meets
      while (lo < hi) {
        const size_t mid   = lo + (hi - lo) / 2;
        point[last]        = mid;
        const PointScore s = score(point);
        if (s.meets) {
          hi = mid;
        } else {
          lo    = mid + 1;
          below = std::max(below, s.objective);
        }
      }
      first_meeting[combo] = lo;
      if (lo < n) {
        point[last]  = lo;
        PointScore s = score(point);
        // The objective fell on the way up to it: it may go on falling past it (fewer instances
        // that run longer can cost as much). Walk on while the next value meets and is better.
        for (size_t up = lo + 1; s.meets && s.objective < below && up < n; ++up) {
          point[last]            = up;
          const PointScore ahead = score(point);
          if (!ahead.meets || !(ahead.objective < s.objective))
            break;
          s = ahead;
        }
        if (s.meets)
          best = std::min(best, s.objective);
      }
      if (!next(combo, outer))
        break;
    }
    return {0, best};
  }

  // Golden-section search of the unimodal axis for the best rank: the lowest objective that
  // meets the targets or, while none does, the least shortfall.
  void golden(PointIndex point)
  {
    const size_t u = static_cast<size_t>(unimodal_);
    const auto at  = [&](size_t v) {
      point[u]          = v;
      const auto cached = rank_at_.find(v);
      if (cached != rank_at_.end())
        return cached->second;
      return rank_at_[v] = best_over_monotone(point);
    };
    size_t lo = 0, hi = sizes_[u] - 1;
    const double r = (std::sqrt(5.0) - 1) / 2;  // 0.618
    while (hi - lo > 2) {
      size_t x1 = hi - static_cast<size_t>(std::lround(r * static_cast<double>(hi - lo)));
      size_t x2 = lo + static_cast<size_t>(std::lround(r * static_cast<double>(hi - lo)));
      if (x1 >= x2)
        x2 = x1 + 1;
      const Rank f1 = at(x1), f2 = at(x2);
      if (f1 <= f2)
        hi = x2 - (f1 < f2 ? 1 : 0);
      else
        lo = x1 + 1;
    }
    for (size_t v = lo; v <= hi; ++v)
      at(v);
  }

  // Whether a >= b in every coordinate.
  static bool dominates(const PointIndex& a, const PointIndex& b)
  {
    for (size_t k = 0; k < a.size(); ++k)
      if (a[k] < b[k])
        return false;
    return true;
  }

  bool next(PointIndex& combo, const std::vector<size_t>& axes) const
  {
    for (size_t k = combo.size(); k-- > 0;) {
      if (++combo[k] < sizes_[axes[k]])
        return true;
      combo[k] = 0;
    }
    return false;
  }

  const std::vector<size_t>& sizes_;
  const PointEvaluate& evaluate_;
  std::vector<size_t> monotone_;
  int unimodal_ = -1;
  std::map<size_t, Rank> rank_at_;
  PlanAnswer answer_;
  double best_objective_ = kInf, best_shortfall_ = kInf;
};

}  // namespace

PlanAnswer search_plan(const std::vector<size_t>& sizes, const std::vector<AxisShape>& shapes,
                       const PointEvaluate& evaluate)
{
  return Search(sizes, shapes, evaluate).run();
}

PlanAnswer search_exhaustive(const std::vector<size_t>& sizes, const PointEvaluate& evaluate)
{
  Search answer(sizes, std::vector<AxisShape>(sizes.size(), AxisShape::Monotone), evaluate);
  PointIndex p(sizes.size(), 0);
  while (true) {
    answer.score(p);
    size_t k = p.size();
    while (k-- > 0) {
      if (++p[k] < sizes[k])
        break;
      p[k] = 0;
    }
    if (k == static_cast<size_t>(-1))
      break;
  }
  return answer.answer();
}

}  // namespace llsim
