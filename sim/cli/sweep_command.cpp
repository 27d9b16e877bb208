#include "sim/cli/sweep_command.hpp"

#include "sim/cli/summary_table.hpp"
#include "sim/cli/sweep_report.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/run/child_runs.hpp"
#include "sim/run/outputs.hpp"
#include "sim/run/slurm_sweep.hpp"
#include "sim/run/sweep_grid.hpp"
#include "sim/run/sweep_table.hpp"
#include "sim/scenario/scenario.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace llsim {

namespace {

const char* const kSweepHelp =
    "llsim sweep SCENARIO.yaml [options]: run a scenario over a grid of values and seeds.\n"
    "  --grid PATH=V1,V2,...  an axis of the grid (values are YAML; commas inside [] or {} do not split);\n"
    "                         repeatable, the cross product is swept. Without: the scenario itself\n"
    "  --seeds N              seeds per point: the scenario's seed and the N - 1 next ones (default 1)\n"
    "  --jobs J               runs at a time (default 1)\n"
    "  --out DIR              output directory (default: out/<scenario name>_sweep/)\n"
    "  --set PATH=VALUE       an override for every point. Repeatable.\n"
    "  --quiet                no progress lines\n"
    "  --slurm                run on Slurm instead: submit a job array (a task per run still missing)\n"
    "                         and a collector job that writes the tables when the array has ended\n"
    "  --partition P          the Slurm partition (default: the cluster's)\n"
    "  --time T               the Slurm time limit of each task (MINUTES, H:M:S or D-H:M:S)\n"
    "  --no-submit            with --slurm: write DIR/slurm/*.sh only, to read or edit before sbatch\n"
    "  --collect              run nothing; write the tables from DIR/runs (the collector job does this)\n"
    "Writes DIR/results.csv (a row per point and seed: swept values, every metric), DIR/summary.csv\n"
    "(per point and metric: n, mean, 95% confidence interval), DIR/report.md, DIR/wall_times.csv,\n"
    "DIR/runs/*/ (wall_time_s: the process's, or for a kept run its summary.json's).\n"
    "Runs already in DIR/runs are kept, not run again.\n";

struct SweepArguments {
  std::string scenario;
  std::vector<SweepAxis> axes;
  std::vector<std::string> sets;
  int64_t seeds = 1, jobs = 1;
  std::string out;
  bool quiet = false, help = false;
  bool slurm = false, collect = false;
  SlurmOptions slurm_options;
  std::vector<std::string> collector;  // the arguments without the Slurm options, then --collect
};

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

SweepArguments parse(const std::vector<std::string>& args)
{
  SweepArguments a;
  std::set<std::string> paths;
  a.collector = {"sweep"};
  for (size_t i = 1; i < args.size(); ++i) {
    const size_t first     = i;
    const std::string& arg = args[i];
    const auto value       = [&]() -> const std::string& {
      if (i + 1 >= args.size())
        throw std::invalid_argument(arg + " expects a value");
      return args[++i];
    };
    if (arg == "--help" || arg == "-h") {
      a.help = true;
    } else if (arg == "--grid") {
      a.axes.push_back(parse_sweep_axis(value()));
      if (!paths.insert(a.axes.back().path).second)
        throw std::invalid_argument("--grid " + a.axes.back().path + " is given twice");
    } else if (arg == "--set") {
      a.sets.push_back(value());
    } else if (arg == "--seeds") {
      a.seeds = positive(arg, value(), 10000);
    } else if (arg == "--jobs") {
      a.jobs = positive(arg, value(), 1024);
    } else if (arg == "--out") {
      a.out = value();
    } else if (arg == "--quiet") {
      a.quiet = true;
    } else if (arg == "--slurm") {
      a.slurm = true;
      continue;
    } else if (arg == "--partition") {
      a.slurm_options.partition = value();
      continue;
    } else if (arg == "--time") {
      check_slurm_time(a.slurm_options.time = value());
      continue;
    } else if (arg == "--no-submit") {
      a.slurm_options.submit = false;
      continue;
    } else if (arg == "--collect") {
      a.collect = true;
      continue;
    } else if (arg.rfind("-", 0) == 0) {
      throw std::invalid_argument("unknown option '" + arg + "'");
    } else if (a.scenario.empty()) {
      a.scenario = arg;
    } else {
      throw std::invalid_argument("more than one scenario given ('" + a.scenario + "' and '" + arg + "')");
    }
    a.collector.insert(a.collector.end(), args.begin() + static_cast<std::ptrdiff_t>(first),
                       args.begin() + static_cast<std::ptrdiff_t>(i) + 1);
  }
  a.collector.push_back("--collect");
  if (a.scenario.empty() && !a.help)
    throw std::invalid_argument("no scenario file given");
  if (!a.slurm && (!a.slurm_options.partition.empty() || !a.slurm_options.time.empty() || !a.slurm_options.submit))
    throw std::invalid_argument("--partition, --time and --no-submit go with --slurm");
  if (a.slurm && a.collect)
    throw std::invalid_argument("--collect is what the Slurm collector job runs; it does not go with --slurm");
  return a;
}

std::string read_text(const std::string& path)
{
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
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

int sweep_command(const std::vector<std::string>& args)
{
  const SweepArguments a = parse(args);
  if (a.help) {
    std::cout << kSweepHelp;
    return kExitOk;
  }
  const auto points = sweep_points(a.axes);
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
  std::filesystem::create_directories(out + "/runs");

  std::vector<Job> jobs;
  for (size_t p = 0; p < points.size(); ++p)
    for (int64_t k = 0; k < a.seeds; ++k) {
      const uint64_t seed = first_seed + static_cast<uint64_t>(k);
      jobs.push_back({p, seed, out + "/runs/p" + std::to_string(p) + "_s" + std::to_string(seed)});
    }
  SweepTable table(a.axes, points);
  std::vector<double> wall(jobs.size(), 0);
  std::vector<bool> resumed(jobs.size(), false);
  std::vector<int64_t> left_of_point(points.size(), a.seeds);
  const auto started = std::chrono::steady_clock::now();
  size_t done        = 0;
  const auto finished = [&](size_t j) {
    const std::string summary = read_text(jobs[j].dir + "/summary.json");
    table.add({jobs[j].point, jobs[j].seed, summary_metrics(summary)});
    if (resumed[j])
      wall[j] = summary_wall_time(summary);
    done += 1;
    if (--left_of_point[jobs[j].point] > 0 || a.quiet || a.collect)
      return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::ostringstream line;
    line << "[" << done / static_cast<size_t>(a.seeds) << "/" << points.size() << "]";
    for (size_t i = 0; i < a.axes.size(); ++i)
      line << " " << a.axes[i].path << "=" << points[jobs[j].point].values[i];
    line << ": " << a.seeds << (a.seeds == 1 ? " seed" : " seeds") << " done; " << readable_duration(elapsed)
         << " elapsed, about " << readable_duration(elapsed / static_cast<double>(done) * static_cast<double>(jobs.size() - done))
         << " left\n";
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
  if (a.slurm && !missing.empty()) {
    std::vector<std::vector<std::string>> tasks;
    for (size_t j : missing)
      tasks.push_back(run_args(j));
    const SlurmJobs submitted = submit_sweep(out, name, tasks, a.collector, a.slurm_options);
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
    while (children.running() >= static_cast<size_t>(a.jobs))
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
  write_file_atomically(report, sweep_report({a.scenario, name, first_seed, a.seeds, a.sets, args_with_llsim(args)}, table,
                                             std::filesystem::exists(report) ? read_text(report) : ""));
  if (!a.quiet)
    std::cout << jobs.size() << " runs (" << points.size() << " points x " << a.seeds << " seeds): " << out
              << "/results.csv, " << out << "/summary.csv\n";
  return kExitOk;
}

}  // namespace llsim
