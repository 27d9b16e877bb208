// What `llsim plan` is asked (docs/plan.md): axes to search, targets to meet and an objective.
//
//   --axis PATH=1..16             an integer range, every whole number from 1 to 16
//   --axis PATH=10min..80min:10min a range in steps (units allowed, the same on all three)
//   --axis PATH=a,b,c             a list, in the order given
//   --unimodal PATH=...           the same, for an axis along which the objective has one minimum
//   --target 'chat.slo_attainment>=0.9'   a metric of summary.json (as sweeps name them), >= <= > <
//   --objective run.cost          what to minimize (default run.cost; --maximize flips it)
//
// An `--axis` is ordered so that the targets are met more easily and the objective grows along it
// (more instances, a bigger pool): the first value that meets the targets is the best along it.
#pragma once
#include "sim/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace llsim {

enum class AxisShape { Monotone, Unimodal };

struct PlanAxis {
  std::string path;
  std::vector<std::string> values;  // in the axis's order
  AxisShape shape = AxisShape::Monotone;
};

enum class Comparison { AtLeast, AtMost, Above, Below };

struct PlanTarget {
  std::string metric;  // as sweeps name it: <phase>.<metric>, services.<service>.<metric>, run.cost
  Comparison op = Comparison::AtLeast;
  double value  = 0;
  std::string text;  // as given
};

// Throw std::invalid_argument saying what was expected. `option` names the flag in messages.
PlanAxis parse_plan_axis(const std::string& text, AxisShape shape, const std::string& option);
PlanTarget parse_plan_target(const std::string& text);
// Whether `value` satisfies the target.
bool satisfies(const PlanTarget& t, double value);
// The metrics a run of `scenario` writes in summary.json, as sweeps name them (simulated_time_s,
// <phase>.<metric>, services.<service>.<metric>, run.cost, run.energy_kwh).
std::vector<std::string> scenario_metrics(const Scenario& scenario);

}  // namespace llsim
