// `llsim plan SCENARIO --axis PATH=SPEC... [--unimodal PATH=SPEC] --target METRIC>=V...
// [--objective METRIC] [--maximize] [--seeds N] [--jobs J | --slurm [--partition P] [--time T]]
// [--out DIR] [--set PATH=VALUE]... [--exhaustive] [--quiet] [--plot]`: the cheapest
// configuration that meets the targets (docs/plan.md). The search is sim/study/plan_search.hpp, the
// runs sim/study/plan_runs.hpp (on Slurm: sim/study/slurm_plan.hpp), the outputs plan_report.hpp.
// Exit status 0 with an answer, 3 when no point meets the targets (the report gives the closest),
// 2 for a bad command line or scenario, 1 when a run fails.
#pragma once
#include "sim/study/slurm_jobs.hpp"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace llsim {

constexpr int kExitInfeasible = 3;

struct PlanArguments {
  std::string scenario;
  std::vector<std::string> axes, unimodal, targets, sets;
  std::string objective = "run.cost";
  bool maximize = false, exhaustive = false, quiet = false, plot = false;
  std::string seeds = "1", jobs = "1";
  std::string out;
  bool slurm = false;
  SlurmOptions slurm_options;
};

CLI::App* add_plan_command(CLI::App& app, PlanArguments& a);
int plan_command(const PlanArguments& a, const std::vector<std::string>& args);

}  // namespace llsim
