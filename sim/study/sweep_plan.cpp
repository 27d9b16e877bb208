#include "sim/study/sweep_plan.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/run/outputs.hpp"
#include "sim/scenario/overrides.hpp"
#include "sim/scenario/scenario.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace llsim {

namespace {

// Loads every point (so each is checked before anything runs); sets the plan's name and first
// seed from the scenario.
void load_points(const SweepRequest& r, SweepPlan& plan)
{
  for (const auto& p : plan.points) {
    LoadOptions load;
    load.overrides = r.sets;
    load.overrides.insert(load.overrides.end(), p.overrides.begin(), p.overrides.end());
    try {
      const Scenario s = load_scenario(r.scenario, load);
      plan.name        = s.name;
      plan.first_seed  = s.seed;
      merge_notes(plan.notes, s.notes);
    } catch (const ConfigError& e) {  // a grid value is applied as a --set: say it is the --grid's
      std::string told = e.what();
      for (const auto& o : p.overrides)
        told = as_option(told, o, "--grid");
      if (told == e.what() && !p.overrides.empty())  // located in the file: name the point
        told = "--grid " + join(p.overrides, " --grid ") + ": " + told;
      throw ConfigError(told);
    }
  }
}

// What makes two sweeps the same, so that runs kept in a directory are reused only by the sweep
// that made them: the scenario file and its text, the grid and the --set overrides.
std::string sweep_identity(const SweepRequest& r, const std::string& scenario_hash)
{
  nlohmann::ordered_json j = {
      {"scenario", r.scenario}, {"scenario_fnv1a", scenario_hash}, {"grid", r.grid}, {"set", r.sets}};
  return j.dump(1) + "\n";
}

// The outermost directory of `out` that does not exist yet ("" when `out` exists).
std::string outermost_missing(const std::string& out)
{
  std::filesystem::path created = std::filesystem::absolute(out).lexically_normal();
  if (std::filesystem::exists(created))
    return "";
  while (created.has_parent_path() && !std::filesystem::exists(created.parent_path()))
    created = created.parent_path();
  return created.string();
}

std::vector<SweepJob> sweep_jobs(const SweepPlan& plan, int64_t seeds)
{
  std::vector<SweepJob> jobs;
  for (size_t p = 0; p < plan.points.size(); ++p)
    for (int64_t k = 0; k < seeds; ++k) {
      const uint64_t seed = plan.first_seed + static_cast<uint64_t>(k);
      jobs.push_back({p, seed, plan.out + "/runs/p" + std::to_string(p) + "_s" + std::to_string(seed)});
    }
  return jobs;
}

// --collect runs nothing: every run must have its results.
void check_collectable(const SweepPlan& plan)
{
  if (plan.missing.empty())
    return;
  std::string names;
  for (size_t k = 0; k < plan.missing.size() && k < 10; ++k)
    names += " " + std::filesystem::path(plan.jobs[plan.missing[k]].dir).filename().string();
  throw SimulationError(std::to_string(plan.missing.size()) + " of " + std::to_string(plan.jobs.size()) +
                        " runs have no results:" + names + (plan.missing.size() > 10 ? " ..." : "") +
                        " (their messages are in " + plan.out + "/slurm/task_*.log; run the sweep again to run them)");
}

}  // namespace

std::string read_text(const std::string& path)
{
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool has_result(const SweepJob& job)
{
  return std::filesystem::exists(job.dir + "/summary.json");
}

SweepPlan plan_sweep(const SweepRequest& r)
{
  SweepPlan plan;
  plan.points = sweep_points(r.axes);
  load_points(r, plan);
  plan.out = r.out.empty() ? "out/" + plan.name + "_sweep" : r.out;
  check_output_dir(plan.out);
  if (r.slurm)
    check_slurm_submission(plan.out, r.slurm_options, "sweep");
  // Every run records the hash of the scenario text it read, so a run made from an edited file
  // is found, not mixed in.
  plan.scenario_hash         = scenario_text_hash(r.scenario);
  const std::string identity = sweep_identity(r, plan.scenario_hash);
  const std::string id_path  = plan.out + "/sweep.json";
  if (std::filesystem::exists(id_path) && read_text(id_path) != identity)
    throw ConfigError(plan.out + " holds the runs of another sweep (" + id_path +
                      " names another scenario text, --grid or --set); choose another --out, or delete " + plan.out);
  if (r.collect && !std::filesystem::exists(id_path))
    throw ConfigError(plan.out + " holds no sweep to collect (no " + id_path +
                      "); run the sweep first, or give its --out");
  plan.created = outermost_missing(plan.out);
  plan.jobs    = sweep_jobs(plan, r.seeds);
  for (size_t j = 0; j < plan.jobs.size(); ++j)
    if (!has_result(plan.jobs[j]))
      plan.missing.push_back(j);
  if (r.collect)
    check_collectable(plan);
  std::filesystem::create_directories(plan.out + "/runs");
  write_file_atomically(id_path, identity);
  return plan;
}

std::vector<std::string> run_arguments(const SweepRequest& r, const SweepPlan& plan, size_t j)
{
  const SweepJob& job           = plan.jobs[j];
  std::vector<std::string> args = {"run", r.scenario, "--quiet", "--out", job.dir, "--seed", std::to_string(job.seed)};
  for (const auto& s : r.sets)
    args.insert(args.end(), {"--set", s});
  for (const auto& s : plan.points[job.point].overrides)
    args.insert(args.end(), {"--set", s});
  return args;
}

}  // namespace llsim
