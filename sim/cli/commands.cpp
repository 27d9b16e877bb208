#include "sim/cli/commands.hpp"

#include "sim/cli/models_listing.hpp"
#include "sim/cli/plot_runner.hpp"
#include "sim/cli/run_report.hpp"
#include "sim/cli/summary_table.hpp"
#include "sim/cli/sweep_command.hpp"
#include "sim/cli/trace_command.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/run/outputs.hpp"
#include "sim/run/simulation.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/sg/log_setting.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>

namespace llsim {

namespace {

const char* const kUsage =
    "usage: llsim run SCENARIO.yaml [--out DIR] [--set PATH=VALUE]... [--seed N] [--quiet] [--plot] [--log=CAT:LEVEL]...\n"
    "       llsim validate SCENARIO.yaml [--set PATH=VALUE]... [--seed N]\n"
    "       llsim sweep SCENARIO.yaml [--grid PATH=V1,V2,...]... [--seeds N] [--jobs J] [--out DIR] [--set PATH=VALUE]...\n"
    "       llsim models\n"
    "       llsim trace stats TRACE [--format F] [--cache-blocks N,...] [--json] [--skip-bad-lines]\n"
    "       llsim --help | --version\n";

const char* const kRunHelp =
    "llsim run SCENARIO.yaml [options]: simulate a scenario and write its results.\n"
    "  --out DIR          output directory (default: out/<scenario name>/)\n"
    "  --set PATH=VALUE   override a value; PATH is dotted, phases are addressed by name\n"
    "                     (--set phases.stage.bytes=20GB); VALUE is read as YAML. Repeatable.\n"
    "  --seed N           the scenario's random seed (overrides 'seed:')\n"
    "  --quiet            no progress line and no summary table\n"
    "  --plot             draw the run's plots (analysis/plot.py, needs python3-matplotlib)\n"
    "  --log=CAT:LEVEL    log category CAT at LEVEL (trace debug verbose info warning error critical)\n"
    "                     on stderr; categories follow the sources: llsim.svc.storage is\n"
    "                     sim/svc/storage.cpp, llsim.svc all services, llsim everything. Repeatable.\n"
    "Writes DIR/summary.json, DIR/report.md, DIR/<phase>.csv, DIR/resolved.yaml.\n"
    "Exit status: 0 success, 2 bad command line or scenario, 1 failure during simulation.\n";

const char* const kValidateHelp =
    "llsim validate SCENARIO.yaml [--set PATH=VALUE]... [--seed N]: load and check the scenario,\n"
    "its platform and every phase's parameters; simulate nothing. Exit 0 if valid, 2 otherwise.\n";

const char* const kModelsHelp =
    "llsim models: list every interface, its implementations and their parameters\n"
    "(type, unit, default, description).\n";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Arguments {
  std::string scenario;
  std::optional<std::string> out;
  LoadOptions load;
  bool quiet = false;
  bool plot  = false;
  bool help  = false;
  std::vector<std::string> log_settings;
};

uint64_t parse_seed(const std::string& text)
{
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || text[0] == '-')
    throw UsageError("--seed expects a non-negative integer, got '" + text + "'");
  return v;
}

std::string check_log_setting(const std::string& setting)
{
  try {
    xbt_log_setting(setting);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  return setting;
}

Arguments parse_arguments(const std::vector<std::string>& args, bool allow_run_options)
{
  Arguments a;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const auto value       = [&]() -> const std::string& {
      if (i + 1 >= args.size())
        throw UsageError(arg + " expects a value");
      return args[++i];
    };
    if (arg == "--help" || arg == "-h")
      a.help = true;
    else if (arg == "--set")
      a.load.overrides.push_back(value());
    else if (arg.rfind("--set=", 0) == 0)
      a.load.overrides.push_back(arg.substr(6));
    else if (arg == "--seed")
      a.load.seed = parse_seed(value());
    else if (allow_run_options && arg == "--out")
      a.out = value();
    else if (allow_run_options && arg == "--quiet")
      a.quiet = true;
    else if (allow_run_options && arg == "--plot")
      a.plot = true;
    else if (allow_run_options && (arg == "--log" || arg.rfind("--log=", 0) == 0))
      a.log_settings.push_back(check_log_setting(arg == "--log" ? value() : arg.substr(6)));
    else if (arg.rfind("-", 0) == 0)
      throw UsageError("unknown option '" + arg + "'");
    else if (a.scenario.empty())
      a.scenario = arg;
    else
      throw UsageError("more than one scenario given ('" + a.scenario + "' and '" + arg + "')");
  }
  if (a.scenario.empty() && !a.help)
    throw UsageError("no scenario file given");
  return a;
}

int run_command(const std::vector<std::string>& args)
{
  const Arguments a = parse_arguments(args, true);
  if (a.help) {
    std::cout << kRunHelp;
    return kExitOk;
  }
  const auto started = std::chrono::steady_clock::now();
  Scenario scenario  = load_scenario(a.scenario, a.load);
  const std::string out_dir = a.out.value_or("out/" + scenario.name);
  check_output_dir(out_dir);
  const bool progress       = !a.quiet && isatty(STDERR_FILENO);
  const SimulationResult result = simulate(scenario, SimulationOptions{progress, a.log_settings});
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  write_outputs(out_dir, scenario, result, wall_s);
  write_file_atomically(out_dir + "/report.md", run_report(scenario, a.load, result, {}));
  if (!a.quiet)
    std::cout << summary_table(scenario, result, wall_s, out_dir);
  if (a.plot) {
    run_plot_script(out_dir);
    write_file_atomically(out_dir + "/report.md", run_report(scenario, a.load, result, plots_in(out_dir)));
  }
  return kExitOk;
}

int validate_command(const std::vector<std::string>& args)
{
  const Arguments a = parse_arguments(args, false);
  if (a.help) {
    std::cout << kValidateHelp;
    return kExitOk;
  }
  const Scenario scenario = load_scenario(a.scenario, a.load);
  int64_t hosts           = 0;
  for (const auto& g : scenario.platform->groups)
    hosts += g.count;
  std::cout << a.scenario << ": valid (scenario '" << scenario.name << "', " << scenario.platform->groups.size()
            << " groups, " << hosts << " hosts, " << scenario.phases.size() << " phases)\n";
  return kExitOk;
}

int models_command(const std::vector<std::string>& args)
{
  if (args.size() > 1 && (args[1] == "--help" || args[1] == "-h")) {
    std::cout << kModelsHelp;
    return kExitOk;
  }
  if (args.size() > 1)
    throw UsageError("'models' takes no arguments");
  std::cout << models_listing();
  return kExitOk;
}

}  // namespace

int main_with_args(const std::vector<std::string>& args)
{
  try {
    if (!RegistryCatalog::errors().empty()) {
      for (const auto& e : RegistryCatalog::errors())
        std::cerr << "llsim: internal error: " << e << "\n";
      return kExitSimulationFailure;
    }
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
      std::cout << "llsim: discrete-event simulator of the storage lifecycle of large language models\n\n"
                << kUsage << "\nRun 'llsim COMMAND --help' for a command's options.\n";
      return args.empty() ? kExitConfigError : kExitOk;
    }
    if (args[0] == "--version") {
      std::cout << "llsim " << LLSIM_VERSION << "\n";
      return kExitOk;
    }
    const std::string& command = args[0];
    if (command == "run")
      return run_command(args);
    if (command == "validate")
      return validate_command(args);
    if (command == "models")
      return models_command(args);
    if (command == "trace" || command == "sweep") {
      try {
        return command == "trace" ? trace_command(args) : sweep_command(args);
      } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
      }
    }
    throw UsageError("unknown command '" + command + "'");
  } catch (const UsageError& e) {
    std::cerr << "llsim: " << e.what() << "\n" << kUsage;
    return kExitConfigError;
  } catch (const ConfigError& e) {
    std::cerr << "llsim: error: " << e.what() << "\n";
    return kExitConfigError;
  } catch (const SimulationError& e) {
    std::cerr << "llsim: simulation failed: " << e.what() << "\n";
    return kExitSimulationFailure;
  }
}

}  // namespace llsim
