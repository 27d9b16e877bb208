#include "sim/cli/sweep_command.hpp"

#include "sim/cli/summary_table.hpp"
#include "sim/cli/sweep_report.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/stable_hash.hpp"
#include "sim/core/text.hpp"
#include "sim/run/child_runs.hpp"
#include "sim/run/outputs.hpp"
#include "sim/run/slurm_sweep.hpp"
#include "sim/run/sweep_grid.hpp"
#include "sim/run/sweep_table.hpp"
#include "sim/scenario/scenario.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace llsim {

namespace {

std::string read_text(const std::string& path)
{
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int64_t positive(const std::string& option, const std::string& text, int64_t most)
{
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || v < 1 || v > most)
    throw std::invalid_argument(option + " expects a whole number from 1 to " + std::to_string(most) + ", got '" +
                                text + "'");
  return v;
}

// The command line checked: the grid's axes and the counts as numbers.
struct CheckedSweep {
  std::vector<SweepAxis> axes;
  int64_t seeds = 1, jobs = 1;
};

CheckedSweep check(const SweepArguments& a)
{
  CheckedSweep c;
  std::set<std::string> paths;
  for (const auto& g : a.grid) {
    c.axes.push_back(parse_sweep_axis(g));
    if (c.axes.back().path == "seed")
      throw std::invalid_argument("the seed is not a grid axis: --seeds N runs N seeds from the scenario's "
                                  "(--set seed=S sets the first)");
    if (!paths.insert(c.axes.back().path).second)
      throw std::invalid_argument("--grid " + c.axes.back().path + " is given twice");
    const auto& values = c.axes.back().values;
    for (size_t i = 0; i < values.size(); ++i)
      if (std::find(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(i), values[i]) !=
          values.begin() + static_cast<std::ptrdiff_t>(i))
        throw std::invalid_argument("--grid " + c.axes.back().path + ": the value '" + values[i] + "' is given twice");
  }
  for (const auto& set : a.sets)
    if (paths.count(trim(set.substr(0, set.find('=')))))
      throw std::invalid_argument("--set " + set + " sets a path the grid sweeps; drop one of them");
  c.seeds = positive("--seeds", a.seeds, 10000);
  c.jobs  = positive("--jobs", a.jobs, 1024);
  if (!a.slurm && (!a.slurm_options.partition.empty() || !a.slurm_options.time.empty() || !a.slurm_options.submit))
    throw std::invalid_argument("--partition, --time and --no-submit go with --slurm");
  if (a.slurm && a.collect)
    throw std::invalid_argument("--collect is what the Slurm collector job runs; it does not go with --slurm");
  if (!a.slurm_options.time.empty())
    check_slurm_time(a.slurm_options.time);
  return c;
}

// What makes two sweeps the same, so that runs kept in a directory are reused only by the sweep
// that made them: the scenario file and its text, the grid and the --set overrides.
std::string sweep_identity(const SweepArguments& a, const std::string& scenario_hash)
{
  nlohmann::ordered_json j = {{"scenario", a.scenario}, {"scenario_fnv1a", scenario_hash}, {"grid", a.grid}, {"set", a.sets}};
  return j.dump(1) + "\n";
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

struct Job {
  size_t point;
  uint64_t seed;
  std::string dir;
};

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
  c->add_flag("--slurm", a.slurm,
              "run on Slurm instead: submit a job array (a task per run still missing) and a collector job that "
              "writes the tables when the array has ended");
  c->add_option("--partition", a.slurm_options.partition, "the Slurm partition (default: the cluster's)")
      ->type_name("P");
  c->add_option("--time", a.slurm_options.time, "the Slurm time limit of each task (MINUTES, H:M:S or D-H:M:S)")
      ->type_name("T");
  c->add_flag_callback("--no-submit", [&a] { a.slurm_options.submit = false; },
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
  const SweepArguments& a    = arguments;
  const CheckedSweep checked = check(a);
  const auto points = sweep_points(checked.axes);
  // Every point is loaded (and so checked) before anything runs.
  std::string name;
  uint64_t first_seed = 1;
  for (const auto& p : points) {
    LoadOptions load;
    load.overrides = a.sets;
    load.overrides.insert(load.overrides.end(), p.overrides.begin(), p.overrides.end());
    const Scenario s = load_scenario(a.scenario, load);
    name             = s.name;
    first_seed       = s.seed;
  }
  const std::string out = a.out.empty() ? "out/" + name + "_sweep" : a.out;
  check_output_dir(out);
  if (a.slurm)
    check_slurm_submission(out, a.slurm_options);
  // Every run records the hash of the scenario text it read, so a run made from an edited file
  // is found, not mixed in.
  const std::string scenario_hash = scenario_text_hash(a.scenario);
  const std::string identity = sweep_identity(a, scenario_hash), identity_path = out + "/sweep.json";
  if (std::filesystem::exists(identity_path) && read_text(identity_path) != identity)
    throw ConfigError(out + " holds the runs of another sweep (" + identity_path +
                      " names another scenario text, --grid or --set); choose another --out, or delete " + out);
  if (a.collect && !std::filesystem::exists(identity_path))
    throw ConfigError(out + " holds no sweep to collect (no " + identity_path +
                      "); run the sweep first, or give its --out");
  // The outermost directory of `out` that this sweep creates, removed if a submission fails.
  std::filesystem::path created = std::filesystem::absolute(out).lexically_normal();
  if (std::filesystem::exists(created))
    created.clear();
  else
    while (created.has_parent_path() && !std::filesystem::exists(created.parent_path()))
      created = created.parent_path();

  std::vector<Job> jobs;
  for (size_t p = 0; p < points.size(); ++p)
    for (int64_t k = 0; k < checked.seeds; ++k) {
      const uint64_t seed = first_seed + static_cast<uint64_t>(k);
      jobs.push_back({p, seed, out + "/runs/p" + std::to_string(p) + "_s" + std::to_string(seed)});
    }
  SweepTable table(checked.axes, points);
  std::vector<double> wall(jobs.size(), 0);
  std::vector<bool> resumed(jobs.size(), false);
  std::vector<int64_t> left_of_point(points.size(), checked.seeds);
  const auto started = std::chrono::steady_clock::now();
  size_t done = 0, ran = 0;  // runs finished, and those of them run now (not kept from before)
  const auto finished = [&](size_t j) {
    const std::string summary_path = jobs[j].dir + "/summary.json";
    RunSummary summary;
    try {
      summary = read_run_summary(read_text(summary_path));
    } catch (const std::runtime_error& e) {
      throw SimulationError(summary_path + ": " + e.what() + "; delete " + jobs[j].dir + " and run the sweep again");
    }
    if (summary.scenario_hash != scenario_hash)
      throw SimulationError(jobs[j].dir + " was run on another text of " + a.scenario +
                            " (was the file edited during the sweep?); restore it, or delete " + out +
                            " and run the sweep again");
    if (resumed[j])
      wall[j] = summary.wall_time_s;
    table.add({jobs[j].point, jobs[j].seed, std::move(summary.metrics)});
    done += 1;
    ran += resumed[j] ? 0 : 1;
    if (--left_of_point[jobs[j].point] > 0 || a.quiet || a.collect)
      return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::ostringstream line;
    line << "[" << done / static_cast<size_t>(checked.seeds) << "/" << points.size() << "]";
    for (size_t i = 0; i < checked.axes.size(); ++i)
      line << " " << checked.axes[i].path << "=" << points[jobs[j].point].values[i];
    line << ": " << checked.seeds << (checked.seeds == 1 ? " seed" : " seeds") << " done; ";
    if (ran == 0)
      line << "kept from an earlier run\n";
    else
      line << readable_duration(elapsed) << " elapsed, about "
           << readable_duration(elapsed / static_cast<double>(ran) * static_cast<double>(jobs.size() - done)) << " left\n";
    std::cerr << line.str();
  };

  const auto run_args = [&](size_t j) {
    std::vector<std::string> run = {"run", a.scenario, "--quiet", "--out", jobs[j].dir, "--seed",
                                    std::to_string(jobs[j].seed)};
    for (const auto& s : a.sets)
      run.insert(run.end(), {"--set", s});
    for (const auto& s : points[jobs[j].point].overrides)
      run.insert(run.end(), {"--set", s});
    return run;
  };
  const auto has_result = [&](size_t j) { return std::filesystem::exists(jobs[j].dir + "/summary.json"); };
  std::vector<size_t> missing;
  for (size_t j = 0; j < jobs.size(); ++j)
    if (!has_result(j))
      missing.push_back(j);
  if (a.collect && !missing.empty()) {
    std::string names;
    for (size_t k = 0; k < missing.size() && k < 10; ++k)
      names += " " + std::filesystem::path(jobs[missing[k]].dir).filename().string();
    throw SimulationError(std::to_string(missing.size()) + " of " + std::to_string(jobs.size()) +
                          " runs have no results:" + names + (missing.size() > 10 ? " ..." : "") +
                          " (their messages are in " + out + "/slurm/task_*.log; run the sweep again to run them)");
  }
  std::filesystem::create_directories(out + "/runs");
  write_file_atomically(identity_path, identity);
  if (a.slurm && !missing.empty()) {
    std::vector<std::vector<std::string>> tasks;
    for (size_t j : missing)
      tasks.push_back(run_args(j));
    SlurmJobs submitted;
    try {
      submitted = submit_sweep(out, name, tasks, collector_arguments(a), a.slurm_options);
    } catch (const SimulationError&) {
      if (!created.empty())  // nothing of a submission that failed is left behind
        std::filesystem::remove_all(created);
      throw;
    }
    if (submitted.array_job.empty())
      std::cout << "wrote " << submitted.array_script << " (" << tasks.size() << " tasks) and " << submitted.collector_script
                << "; submit with: jobid=$(sbatch --parsable " << submitted.array_script
                << ") && sbatch --dependency=afterany:$jobid " << submitted.collector_script << "\n";
    else
      std::cout << "submitted job array " << submitted.array_job << " (" << tasks.size() << " tasks) and collector job "
                << submitted.collector_job << "; " << out << "/results.csv is written when job "
                << submitted.collector_job << " ends (squeue -j " << submitted.array_job << ","
                << submitted.collector_job << ")\n";
    return kExitOk;
  }

  ChildRuns children;
  std::string failure;  // the first run that failed; no new run starts after it
  const auto reap = [&] {
    const ChildExit e = children.wait_any();
    wall[e.job]       = e.wall_s;
    const std::string log = jobs[e.job].dir + ".log";
    if (e.status != 0) {
      if (failure.empty())
        failure = jobs[e.job].dir + " failed (exit " + std::to_string(e.status) + "):\n" + read_text(log);
      return;
    }
    std::filesystem::remove(log);
    finished(e.job);
  };
  for (size_t j = 0; j < jobs.size() && failure.empty(); ++j) {
    if (has_result(j)) {
      resumed[j] = true;
      finished(j);
      continue;
    }
    children.start(j, run_args(j), jobs[j].dir + ".log");
    while (children.running() >= static_cast<size_t>(checked.jobs))
      reap();
  }
  while (children.running() > 0)
    reap();
  if (!failure.empty())
    throw SimulationError("sweep stopped: " + failure + "(finished runs are kept in " + out +
                          "/runs; run the same sweep again to resume)");

  std::string walls = "point,seed,wall_time_s,resumed\n";
  for (size_t j = 0; j < jobs.size(); ++j)
    walls += std::to_string(jobs[j].point) + "," + std::to_string(jobs[j].seed) + "," +
             (std::isnan(wall[j]) ? std::string() : format_number(wall[j])) + "," + (resumed[j] ? "1" : "0") + "\n";
  write_file_atomically(out + "/results.csv", table.results_csv());
  write_file_atomically(out + "/summary.csv", table.summary_csv());
  write_file_atomically(out + "/wall_times.csv", walls);
  const std::string report = out + "/report.md";
  write_file_atomically(report, sweep_report({a.scenario, name, first_seed, checked.seeds, a.sets, args_with_llsim(args)}, table,
                                             std::filesystem::exists(report) ? read_text(report) : ""));
  if (!a.quiet)
    std::cout << jobs.size() << " runs (" << points.size() << " points x " << checked.seeds << " seeds): " << out
              << "/results.csv, " << out << "/summary.csv\n";
  return kExitOk;
}

}  // namespace llsim
