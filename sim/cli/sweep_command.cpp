#include "sim/cli/sweep_command.hpp"

#include "sim/cli/summary_table.hpp"
#include "sim/cli/sweep_report.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/run/child_runs.hpp"
#include "sim/run/outputs.hpp"
#include "sim/run/sweep_grid.hpp"
#include "sim/run/sweep_table.hpp"
#include "sim/scenario/scenario.hpp"

#include <unistd.h>

#include <chrono>
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
    "Writes DIR/results.csv (a row per point and seed: swept values, every metric), DIR/summary.csv\n"
    "(per point and metric: n, mean, 95% confidence interval), DIR/report.md, DIR/wall_times.csv,\n"
    "DIR/runs/*/.\n"
    "Runs already in DIR/runs are kept, not run again.\n";

struct SweepArguments {
  std::string scenario;
  std::vector<SweepAxis> axes;
  std::vector<std::string> sets;
  int64_t seeds = 1, jobs = 1;
  std::string out;
  bool quiet = false, help = false;
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
  for (size_t i = 1; i < args.size(); ++i) {
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
    } else if (arg.rfind("-", 0) == 0) {
      throw std::invalid_argument("unknown option '" + arg + "'");
    } else if (a.scenario.empty()) {
      a.scenario = arg;
    } else {
      throw std::invalid_argument("more than one scenario given ('" + a.scenario + "' and '" + arg + "')");
    }
  }
  if (a.scenario.empty() && !a.help)
    throw std::invalid_argument("no scenario file given");
  return a;
}

std::string read_text(const std::string& path)
{
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> args_with_llsim(const std::vector<std::string>& args)
{
  std::vector<std::string> out = {"llsim"};
  out.insert(out.end(), args.begin(), args.end());
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
    table.add({jobs[j].point, jobs[j].seed, summary_metrics(read_text(jobs[j].dir + "/summary.json"))});
    done += 1;
    if (--left_of_point[jobs[j].point] > 0 || a.quiet)
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
    if (std::filesystem::exists(jobs[j].dir + "/summary.json")) {
      resumed[j] = true;
      finished(j);
      continue;
    }
    std::vector<std::string> run = {"run", a.scenario, "--quiet", "--out", jobs[j].dir, "--seed",
                                    std::to_string(jobs[j].seed)};
    for (const auto& s : a.sets)
      run.insert(run.end(), {"--set", s});
    for (const auto& s : points[jobs[j].point].overrides)
      run.insert(run.end(), {"--set", s});
    children.start(j, run, jobs[j].dir + ".log");
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
             (resumed[j] ? std::string() : format_number(wall[j])) + "," + (resumed[j] ? "1" : "0") + "\n";
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
