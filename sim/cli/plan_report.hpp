// What `llsim plan` writes: DIR/points.csv (every point it ran: its axis values, seeds, the
// objective's and each target metric's mean and 95% interval, whether it met each target) and
// DIR/answer.json, DIR/report.md (the answer, or that none met the targets and the point closest to them; the run
// count against the full grid; the cost/target frontier; every point; the plots when drawn).
#pragma once
#include "sim/study/plan_runs.hpp"

#include <string>
#include <vector>

namespace llsim {

struct PlanOutcome {
  const PlanSetup* setup = nullptr;
  PlanAnswer answer;
  std::vector<const PlanPoint*> points;  // in the order they ran
  size_t grid_points = 0;
  size_t made = 0, kept = 0;  // runs run now, and kept from an earlier plan
  bool exhaustive = false;
  std::vector<std::string> command;  // that reproduces the plan
};

std::string plan_points_csv(const PlanOutcome& o);
// DIR/answer.json: the answer (or the closest point), whether it meets the targets, the
// objective and targets, and the run counts, for scripts (analysis/plan_plot.py reads it).
std::string plan_answer_json(const PlanOutcome& o);
std::string plan_report(const PlanOutcome& o, const std::vector<std::string>& plots);
// "phases.chat.system.instances=12, ..." for a point.
std::string point_text(const PlanSetup& setup, const PointIndex& index);
// Where the points run contradict the search's assumptions: a list axis whose numbers fall, the
// objective falling along a monotone axis (then a point the search skipped may be cheaper;
// --exhaustive tells); and an infeasible plan with points whose mean meets the targets.
std::vector<std::string> plan_warnings(const PlanOutcome& o);
// The points no other point beats in the objective and every target metric at once.
std::vector<const PlanPoint*> plan_frontier(const PlanOutcome& o);

}  // namespace llsim
