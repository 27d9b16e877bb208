#include "sim/cli/plan_command.hpp"

#include "sim/cli/plan_report.hpp"
#include "sim/cli/plot_runner.hpp"
#include "sim/cli/run_report.hpp"
#include "sim/cli/slurm_options.hpp"
#include "sim/cli/summary_table.hpp"
#include "sim/cli/whole_option.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/run/outputs.hpp"
#include "sim/scenario/overrides.hpp"
#include "sim/study/slurm_plan.hpp"
#include "sim/study/sweep_plan.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>
#include <stdexcept>

namespace llsim {

namespace {

// A metric the scenario's runs write, or a ConfigError listing them.
void check_metric(const std::string& option, const std::string& metric, const std::vector<std::string>& known)
{
  if (std::find(known.begin(), known.end(), metric) != known.end())
    return;
  const std::string prefix = metric.substr(0, metric.rfind('.') + 1);
  std::vector<std::string> near;
  for (const std::string& k : known)
    if (!prefix.empty() && k.compare(0, prefix.size(), prefix) == 0)
      near.push_back(k);
  throw ConfigError(
      option + " " + metric + ": no such metric in this scenario's summary.json; " +
      (near.empty() ? "its metrics: " + join(known, ", ") : "the metrics of " + prefix + "*: " + join(near, ", ")));
}

// Parses and checks the command line; loads the scenario at every axis value.
PlanSetup checked_setup(const PlanArguments& a)
{
  PlanSetup s;
  s.scenario = std::filesystem::path(a.scenario).lexically_normal().string();  // ./x and x: one plan
  for (const auto& text : a.axes)
    s.axes.push_back(parse_plan_axis(text, AxisShape::Monotone, "--axis"));
  for (const auto& text : a.unimodal)
    s.axes.push_back(parse_plan_axis(text, AxisShape::Unimodal, "--unimodal"));
  if (s.axes.empty())
    throw std::invalid_argument("llsim plan needs at least one --axis or --unimodal");
  if (a.unimodal.size() > 1)
    throw std::invalid_argument("at most one --unimodal axis");
  std::set<std::string> paths;
  for (const PlanAxis& axis : s.axes) {
    if (axis.path == "seed")
      throw std::invalid_argument("the seed is not an axis: --seeds N runs N seeds at every point");
    if (!paths.insert(axis.path).second)
      throw std::invalid_argument(axis.path + " is an axis twice");
  }
  for (const auto& set : a.sets)
    if (paths.count(trim(set.substr(0, set.find('=')))))
      throw std::invalid_argument("--set " + set + " sets a path the plan searches; drop one of them");
  for (const auto& text : a.targets) {
    const PlanTarget t = parse_plan_target(text);
    for (const PlanTarget& before : s.targets)
      if (before.metric == t.metric && before.op == t.op && before.value == t.value)
        throw std::invalid_argument("--target " + text + " is given twice (as " + before.text + ")");
    s.targets.push_back(t);
  }
  s.objective = a.objective;
  s.maximize  = a.maximize;
  s.sets      = a.sets;
  s.seeds     = whole_option("--seeds", a.seeds, 1000);
  s.jobs      = whole_option("--jobs", a.jobs, 1024);
  if (!a.slurm && (!a.slurm_options.partition.empty() || !a.slurm_options.time.empty()))
    throw std::invalid_argument("--partition and --time go with --slurm");
  if (a.slurm && s.jobs != 1)
    throw std::invalid_argument("--jobs is for local runs; with --slurm, Slurm runs a point's seeds at once");
  if (!a.slurm_options.time.empty())
    check_slurm_time(a.slurm_options.time);
  LoadOptions load;
  load.overrides      = a.sets;
  const Scenario base = load_scenario(a.scenario, load);
  merge_notes(s.notes, base.notes);
  s.first_seed     = base.seed;
  s.name           = base.name;
  s.out            = a.out.empty() ? "out/" + base.name + "_plan" : a.out;
  const auto known = scenario_metrics(base);
  for (const PlanTarget& t : s.targets)
    check_metric("--target", t.metric, known);
  check_metric("--objective", s.objective, known);
  for (const PlanAxis& axis : s.axes)
    for (const std::string& v : axis.values) {
      LoadOptions one = load;
      one.overrides.push_back(axis.path + "=" + v);
      try {
        merge_notes(s.notes, load_scenario(a.scenario, one).notes);
      } catch (const ConfigError& e) {
        // The axis is applied as a --set: say which option, not that one.
        const std::string option = axis.shape == AxisShape::Monotone ? "--axis" : "--unimodal";
        const std::string told   = as_option(e.what(), axis.path + "=" + v, option);
        throw ConfigError(told != e.what() ? told : option + " " + axis.path + "=" + v + ": " + e.what());
      }
    }
  return s;
}

// What makes two plans share runs: the scenario and its text, the axes and the --set overrides
// (the targets and the objective only read the runs).
void claim_output(const PlanSetup& s)
{
  check_output_dir(s.out);
  nlohmann::ordered_json axes = nlohmann::ordered_json::array();
  for (const PlanAxis& a : s.axes)
    axes.push_back({{"path", a.path}, {"values", a.values}});
  const nlohmann::ordered_json identity = {
      {"scenario", s.scenario}, {"scenario_fnv1a", scenario_text_hash(s.scenario)}, {"axes", axes}, {"set", s.sets}};
  const std::string text = identity.dump(1) + "\n", path = s.out + "/plan.json";
  if (std::filesystem::exists(path) && read_text(path) != text) {
    std::vector<std::string> differ;
    try {
      const nlohmann::ordered_json before = nlohmann::ordered_json::parse(read_text(path));
      for (const auto& [key, value] : identity.items())
        if (!before.contains(key) || before.at(key) != value)
          differ.push_back(key == "scenario_fnv1a" ? "scenario text" : key == "set" ? "--set" : key);
    } catch (const nlohmann::json::exception&) {
      differ.push_back("unreadable");
    }
    throw ConfigError(s.out + " holds the runs of another plan (" + path + ": its " + join(differ, ", ") +
                      " differ); choose another --out, or delete " + s.out);
  }
  std::filesystem::create_directories(s.out + "/runs");
  write_file_atomically(path, text);
}

std::string progress_line(const PlanSetup& s, const PlanPoint& p)
{
  // Figures as the console's table writes them; answer.json and points.csv keep every digit.
  std::string out = "plan: " + point_text(s, p.index) + ": " + s.objective + " " +
                    readable(s.objective, p.figures.at(s.objective).mean);
  for (size_t k = 0; k < s.targets.size(); ++k)
    out += ", " + s.targets[k].metric + " " + readable(s.targets[k].metric, p.figures.at(s.targets[k].metric).mean) +
           (p.met[k] ? " (meets)" : " (misses)");
  return out + "\n";
}

}  // namespace

CLI::App* add_plan_command(CLI::App& app, PlanArguments& a)
{
  CLI::App* c = app.add_subcommand("plan", "find the configuration with the best objective (by default the "
                                           "cheapest) that meets targets, searching axes of values");
  c->add_option("SCENARIO", a.scenario, "the scenario file (YAML)")->required();
  const auto repeated = [c](const std::string& name, std::vector<std::string>& into, const std::string& type,
                            const std::string& help) {
    c->add_option(name, into, help)->type_name(type)->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  };
  repeated("--axis", a.axes, "PATH=LO..HI|LO..HI:STEP|V1,V2,...",
           "an axis along which the targets are met more easily and the objective grows (instances, a pool's "
           "size); bisected. Repeatable");
  repeated("--unimodal", a.unimodal, "PATH=...",
           "an axis along which the objective has one minimum (a checkpoint interval); golden-section searched. "
           "At most one");
  repeated("--target", a.targets, "METRIC>=V",
           "a target on a metric of summary.json as sweeps name it (chat.slo_attainment, run.cost, "
           "services.pfs.utilisation); >=, <=, > or <. Repeatable; without any, every point meets");
  c->add_option("--objective", a.objective, "the metric to minimize (default run.cost)")->type_name("METRIC");
  c->add_flag("--maximize", a.maximize, "maximize the objective instead");
  c->add_option("--seeds", a.seeds,
                "seeds per point (default 1); with 2 or more, a point meets a target when "
                "its 95% confidence interval does")
      ->type_name("N");
  c->add_option("--jobs", a.jobs, "runs at a time (default 1)")->type_name("J");
  add_slurm_options(*c, a.slurm, a.slurm_options,
                    "run each point's seeds as a Slurm job array (sbatch), the search waiting for each; from a "
                    "login node or a job of its own");
  c->add_option("--out", a.out, "output directory (default: out/<scenario name>_plan/)")->type_name("DIR");
  repeated("--set", a.sets, "PATH=VALUE", "an override for every point. Repeatable");
  c->add_flag("--exhaustive", a.exhaustive, "run every point of the grid instead of searching (to check a search)");
  c->add_flag("--quiet", a.quiet, "no progress lines");
  c->add_flag("--plot", a.plot, "draw the objective against each target metric (analysis/plan_plot.py)");
  c->footer("Writes DIR/report.md, DIR/points.csv, DIR/plan.json and DIR/runs/*/ (with --slurm, DIR/slurm/ too).\n"
            "Runs already in DIR/runs are kept, not run again. Exit status: 0 an answer, 3 no point meets the targets, "
            "2 bad input, 1 a run failed.");
  return c;
}

int plan_command(const PlanArguments& a, const std::vector<std::string>& args)
{
  const PlanSetup setup = checked_setup(a);
  for (const std::string& note : setup.notes)
    std::cerr << "llsim plan: note: " << note << "\n";
  if (a.slurm)
    check_slurm_submission(setup.out, a.slurm_options, "plan");
  claim_output(setup);
  PlanRuns runs(setup, a.slurm ? slurm_runs(setup.out, setup.name, a.slurm_options) : local_runs(setup.jobs));
  std::vector<size_t> sizes;
  std::vector<AxisShape> shapes;
  for (const PlanAxis& axis : setup.axes) {
    sizes.push_back(axis.values.size());
    shapes.push_back(axis.shape);
  }
  const PointEvaluate evaluate = [&](const PointIndex& index) {
    const size_t before = runs.order().size();
    const PlanPoint& p  = runs.evaluate(index);
    if (!a.quiet && runs.order().size() > before)
      std::cerr << progress_line(setup, p);
    return p.score;
  };
  PlanOutcome o;
  o.setup       = &setup;
  o.answer      = a.exhaustive ? search_exhaustive(sizes, evaluate) : search_plan(sizes, shapes, evaluate);
  o.points      = runs.order();
  o.grid_points = 1;
  for (size_t n : sizes)
    o.grid_points *= n;
  o.made       = runs.runs_made();
  o.kept       = runs.runs_kept();
  o.exhaustive = a.exhaustive;
  o.command    = {"llsim"};
  o.command.insert(o.command.end(), args.begin(), args.end());
  write_file_atomically(setup.out + "/points.csv", plan_points_csv(o));
  write_file_atomically(setup.out + "/answer.json", plan_answer_json(o));
  write_file_atomically(setup.out + "/report.md", plan_report(o, {}));
  if (a.plot) {
    run_plot_script(setup.out, "plan_plot.py");
    write_file_atomically(setup.out + "/report.md", plan_report(o, plots_in(setup.out)));
  }
  for (const std::string& w : plan_warnings(o))
    std::cerr << "llsim plan: warning: " << w << "\n";
  std::cout << (o.answer.feasible ? "answer: " : "infeasible: no point meets the targets; closest: ")
            << point_text(setup, o.answer.best) << "\n"
            << o.points.size() * static_cast<size_t>(setup.seeds) << " runs (" << o.points.size() << " points x "
            << setup.seeds << " seeds; " << o.made << " run now, " << o.kept << " kept) of "
            << o.grid_points * static_cast<size_t>(setup.seeds) << " for the full grid: " << setup.out
            << "/report.md\n";
  return o.answer.feasible ? 0 : kExitInfeasible;
}

}  // namespace llsim
