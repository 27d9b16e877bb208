#include "sim/cli/sweep_command.hpp"

#include "sim/cli/slurm_options.hpp"
#include "sim/cli/sweep_report.hpp"
#include "sim/cli/whole_option.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/run/outputs.hpp"
#include "sim/study/local_sweep.hpp"
#include "sim/study/slurm_sweep.hpp"
#include "sim/study/sweep_plan.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>
#include <stdexcept>

namespace llsim {

namespace {

// The --grid axes, each path and each value once; no --set of a swept path.
std::vector<SweepAxis> checked_axes(const SweepArguments& a)
{
  std::vector<SweepAxis> axes;
  std::set<std::string> paths;
  for (const auto& g : a.grid) {
    axes.push_back(parse_sweep_axis(g));
    if (axes.back().path == "seed")
      throw std::invalid_argument("the seed is not a grid axis: --seeds N runs N seeds from the scenario's "
                                  "(--set seed=S sets the first)");
    if (!paths.insert(axes.back().path).second)
      throw std::invalid_argument("--grid " + axes.back().path + " is given twice");
    const auto& values = axes.back().values;
    for (size_t i = 0; i < values.size(); ++i)
      if (std::find(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(i), values[i]) !=
          values.begin() + static_cast<std::ptrdiff_t>(i))
        throw std::invalid_argument("--grid " + axes.back().path + ": the value '" + values[i] + "' is given twice");
  }
  for (const auto& set : a.sets)
    if (paths.count(trim(set.substr(0, set.find('=')))))
      throw std::invalid_argument("--set " + set + " sets a path the grid sweeps; drop one of them");
  return axes;
}

// The arguments of the `llsim sweep ... --collect` that the Slurm collector job runs.
std::vector<std::string> collector_arguments(const SweepArguments& a)
{
  std::vector<std::string> out = {"sweep", a.scenario, "--seeds", a.seeds, "--collect", "--quiet"};
  for (const auto& g : a.grid)
    out.insert(out.end(), {"--grid", g});
  for (const auto& s : a.sets)
    out.insert(out.end(), {"--set", s});
  if (!a.out.empty())
    out.insert(out.end(), {"--out", a.out});
  return out;
}

// The command that reproduces the sweep on this machine (the collector's --collect left out).
std::vector<std::string> args_with_llsim(const std::vector<std::string>& args)
{
  std::vector<std::string> out = {"llsim"};
  for (const auto& a : args)
    if (a != "--collect")
      out.push_back(a);
  return out;
}

// The command line checked: the grid's axes and the counts as numbers.
SweepRequest checked_request(const SweepArguments& a, const std::vector<std::string>& args)
{
  SweepRequest r;
  r.axes  = checked_axes(a);
  r.seeds = whole_option("--seeds", a.seeds, 10000);
  r.jobs  = whole_option("--jobs", a.jobs, 1024);
  if (!a.slurm && (!a.slurm_options.partition.empty() || !a.slurm_options.time.empty() || !a.slurm_options.submit))
    throw std::invalid_argument("--partition, --time and --no-submit go with --slurm");
  if (a.slurm && a.collect)
    throw std::invalid_argument("--collect is what the Slurm collector job runs; it does not go with --slurm");
  if (!a.slurm_options.time.empty())
    check_slurm_time(a.slurm_options.time);
  r.scenario      = a.scenario;
  r.grid          = a.grid;
  r.sets          = a.sets;
  r.out           = a.out;
  r.quiet         = a.quiet;
  r.slurm         = a.slurm;
  r.collect       = a.collect;
  r.slurm_options = a.slurm_options;
  r.collector     = collector_arguments(a);
  r.command       = args_with_llsim(args);
  return r;
}

}  // namespace

CLI::App* add_sweep_command(CLI::App& app, SweepArguments& a)
{
  CLI::App* c = app.add_subcommand("sweep", "run a scenario over a grid of values and seeds");
  c->add_option("SCENARIO", a.scenario, "the scenario file (YAML)")->required();
  c->add_option("--grid", a.grid,
                "an axis of the grid (values are YAML; commas inside [] or {} do not split); repeatable, the cross "
                "product is swept. Without: the scenario itself")
      ->type_name("PATH=V1,V2,...")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  c->add_option("--seeds", a.seeds, "seeds per point: the scenario's seed and the N - 1 next ones (default 1)")
      ->type_name("N");
  c->add_option("--jobs", a.jobs, "runs at a time (default 1)")->type_name("J");
  c->add_option("--out", a.out, "output directory (default: out/<scenario name>_sweep/)")->type_name("DIR");
  c->add_option("--set", a.sets, "an override for every point. Repeatable")
      ->type_name("PATH=VALUE")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  c->add_flag("--quiet", a.quiet, "no progress lines");
  add_slurm_options(*c, a.slurm, a.slurm_options,
                    "run on Slurm instead: submit a job array (a task per run still missing) and a collector job "
                    "that writes the tables when the array has ended");
  c->add_flag_callback(
      "--no-submit", [&a] { a.slurm_options.submit = false; },
      "with --slurm: write DIR/slurm/*.sh only, to read or edit before sbatch");
  c->add_flag("--collect", a.collect, "run nothing; write the tables from DIR/runs (the collector job does this)");
  c->footer("Writes DIR/results.csv (a row per point and seed: swept values, every metric), DIR/summary.csv\n"
            "(per point and metric: n, mean, 95% confidence interval), DIR/report.md, DIR/wall_times.csv,\n"
            "DIR/runs/*/ (wall_time_s: the process's, or for a kept run its summary.json's).\n"
            "Runs already in DIR/runs are kept, not run again.");
  return c;
}

int sweep_command(const SweepArguments& arguments, const std::vector<std::string>& args)
{
  const SweepRequest r = checked_request(arguments, args);
  const SweepPlan plan = plan_sweep(r);
  for (const std::string& note : plan.notes)
    std::cerr << "llsim sweep: note: " << note << "\n";
  if (r.slurm && !plan.missing.empty()) {
    submit_planned_sweep(r, plan);
    return kExitOk;
  }
  const SweepOutcome done =
      run_local_sweep(r, plan, [](const SweepProgress& p) { std::cerr << sweep_progress_line(p); });
  const std::string& out = plan.out;
  write_file_atomically(out + "/results.csv", done.table.results_csv());
  write_file_atomically(out + "/summary.csv", done.table.summary_csv());
  write_file_atomically(out + "/wall_times.csv", wall_times_csv(plan.jobs, done.wall_s, done.resumed));
  const std::string report = out + "/report.md";
  write_file_atomically(report,
                        sweep_report({r.scenario, plan.name, plan.first_seed, r.seeds, r.sets, r.command, plan.notes},
                                     done.table, std::filesystem::exists(report) ? read_text(report) : ""));
  // Kept with --quiet, which drops only the progress lines.
  std::cout << plan.jobs.size() << " runs (" << plan.points.size() << " points x " << r.seeds << " seeds): " << out
            << "/results.csv, " << out << "/summary.csv\n";
  return kExitOk;
}

}  // namespace llsim
