// The search of `llsim plan` (docs/plan.md), on axis indices, with no simulation in it: the
// caller's `evaluate` runs a point (its seeds) and says whether it meets the targets.
//
// - Monotone axes (`--axis`): the targets are met from some value on and the objective grows
//   along each. For every combination of the other monotone axes (in increasing order), the last
//   one is bisected for its first value that meets the targets, between bounds that earlier
//   combinations give: a combination above another needs no more of the last axis, one below
//   needs no less (the feasible region's edge is a staircase). When a value below the first one
//   that meets had a worse objective, the objective may still be getting better there: the
//   search walks on along the last axis while the next value meets the targets and is better.
//   First, the corner of every axis at its last value is run: if it misses, nothing does, and
//   the plan is infeasible.
// - A unimodal axis (`--unimodal`, at most one): the objective has one minimum along it; a
//   golden-section search over its values, each value's objective being the best the monotone
//   axes give there (or the point's own).
// The answer is the evaluated point that meets the targets at the lowest objective (the lowest
// index breaking ties), as an exhaustive search picks over every point; when none meets, the one
// closest to meeting them (least shortfall).
#pragma once
#include "sim/study/plan_spec.hpp"

#include <cstddef>
#include <functional>
#include <vector>

namespace llsim {

struct PointScore {
  bool meets       = false;
  double objective = 0;  // to minimize
  double shortfall = 0;  // how far from meeting the targets (0 when it meets)
};

using PointIndex    = std::vector<size_t>;  // one value index per axis
using PointEvaluate = std::function<PointScore(const PointIndex&)>;

struct PlanAnswer {
  bool feasible = false;
  PointIndex best;  // the answer, or the point closest to meeting the targets
};

// `evaluate` may be called for a point more than once: cache it.
PlanAnswer search_plan(const std::vector<size_t>& sizes, const std::vector<AxisShape>& shapes,
                       const PointEvaluate& evaluate);
// Every point of the grid, in index order; the answer by the same rule.
PlanAnswer search_exhaustive(const std::vector<size_t>& sizes, const PointEvaluate& evaluate);

}  // namespace llsim
