#include "sim/run/outputs.hpp"

#include "sim/accounting/accounting_json.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/json_number.hpp"
#include "sim/core/text.hpp"
#include "sim/run/bottlenecks.hpp"
#include "sim/run/resolved_json.hpp"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace llsim {

namespace {

// The kill tests (tests/llsim/test_run_folder.py, test_sweep.py) stop llsim as `kill -9` would,
// right after its n-th file is in place: LLSIM_KILL_AFTER_WRITES=n. The setting is this
// process's: a sweep's runs, started later, write their files whole.
void killed_after_writes_for_tests()
{
  static const long kill_after = [] {
    const char* setting = std::getenv("LLSIM_KILL_AFTER_WRITES");
    const long n        = setting != nullptr ? std::atol(setting) : 0;
    unsetenv("LLSIM_KILL_AFTER_WRITES");
    return n;
  }();
  static long written = 0;
  if (++written == kill_after)
    std::raise(SIGKILL);
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content)
{
  write_file_atomically(path, [&content](std::ostream& out) { out << content; });
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill)
{
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    fill(out);
    out.close();
    if (!out)
      throw SimulationError("cannot write '" + temporary + "'");
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error)
    throw SimulationError("cannot rename '" + temporary + "' to '" + path + "': " + error.message());
  killed_after_writes_for_tests();
}

std::string summary_json(const Scenario& scenario, const SimulationResult& result, double wall_time_s)
{
  nlohmann::ordered_json out;
  out["scenario"]         = scenario.name;
  out["seed"]             = scenario.seed;
  out["scenario_fnv1a"]   = scenario.text_hash;
  out["simulated_time_s"] = json_number(result.simulated_time_s);
  out["wall_time_s"]      = json_number(wall_time_s);
  out["phases"]           = nlohmann::ordered_json::object();
  for (const PhaseResult& p : result.phases) {
    nlohmann::ordered_json phase;
    phase["kind"]    = p.kind;
    phase["start_s"] = json_number(p.start_s);
    phase["end_s"]   = json_number(p.end_s);
    phase.update(json_metrics(p.metrics));
    phase.update(json_metrics(result.accounting.phases[&p - result.phases.data()].metrics()));
    out["phases"][p.name] = phase;
  }
  out["services"] = nlohmann::ordered_json::object();
  for (const ServiceResult& s : result.services) {
    nlohmann::ordered_json service;
    service["kind"] = s.kind;
    service.update(json_metrics(s.totals));
    service.update(json_metrics(result.accounting.services[&s - result.services.data()].metrics()));
    out["services"][s.name] = service;
  }
  out["bottlenecks"] = bottlenecks_json(result);
  out["run"]         = json_metrics({{"cost", result.accounting.cost}, {"energy_kwh", result.accounting.energy_kwh}});
  out["accounting"]  = accounting_json(finished_run(scenario, result), result.accounting);
  return out.dump(2) + "\n";
}

void check_output_dir(const std::string& dir)
{
  if (dir.empty())
    throw ConfigError("--out expects a directory, got ''");
  std::filesystem::path at = std::filesystem::absolute(dir);
  std::error_code error;
  // The deepest part of the path that exists must be a directory we may write in (or, when it
  // is `dir` itself, a directory we may write in too).
  while (!std::filesystem::exists(at, error) && at.has_parent_path() && at != at.parent_path())
    at = at.parent_path();
  if (!std::filesystem::is_directory(at, error))
    throw ConfigError("--out " + dir + ": '" + at.string() + "' is not a directory");
  if (access(at.c_str(), W_OK | X_OK) != 0)
    throw ConfigError("--out " + dir + ": cannot write in '" + at.string() + "': " + std::strerror(errno));
  // Permission bits do not tell everything (/proc, /sys, a read-only mount): make and remove a
  // probe directory there.
  std::string probe = (at / ".llsim-probe-XXXXXX").string();
  if (mkdtemp(probe.data()) == nullptr)
    throw ConfigError("--out " + dir + ": cannot create a directory in '" + at.string() + "': " + std::strerror(errno));
  rmdir(probe.c_str());
}

void write_outputs(const std::string& dir, const Scenario& scenario, const SimulationResult& result, double wall_time_s)
{
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    throw SimulationError("cannot create the output directory '" + dir + "': " + error.message());
  for (const auto& phase : result.phases)
    for (const auto& t : phase.tables)
      write_file_atomically(dir + "/" + phase.name + (t.suffix.empty() ? "" : "_" + t.suffix) + ".csv",
                            [&t](std::ostream& out) { t.table.write(out); });
  for (const auto& service : result.services)
    write_file_atomically(dir + "/service_" + service.name + ".csv", service.table.text());
  YAML::Emitter resolved;
  resolved << scenario.tree;
  write_file_atomically(dir + "/resolved.yaml", std::string("# Scenario as run by llsim, every default filled in.\n") +
                                                    resolved.c_str() + "\n");
  write_file_atomically(dir + "/resolved.json", resolved_json(scenario.tree));
  write_file_atomically(dir + "/summary.json", summary_json(scenario, result, wall_time_s));
}

}  // namespace llsim
