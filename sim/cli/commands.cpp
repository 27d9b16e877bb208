#include "sim/cli/commands.hpp"

#include "sim/calibrate/calibrate_command.hpp"
#include "sim/cli/models_listing.hpp"
#include "sim/cli/plan_command.hpp"
#include "sim/cli/plot_runner.hpp"
#include "sim/cli/run_report.hpp"
#include "sim/cli/summary_table.hpp"
#include "sim/cli/sweep_command.hpp"
#include "sim/cli/trace_command.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/run/outputs.hpp"
#include "sim/run/run_folder.hpp"
#include "sim/run/simulation.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/sg/log_setting.hpp"

#include <CLI/CLI.hpp>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>

namespace llsim {

namespace {

const char* const kUsage =
    "usage: llsim run SCENARIO.yaml [--out DIR] [--set PATH=VALUE]... [--seed N] [--quiet] [--plot] "
    "[--log=CAT:LEVEL]...\n"
    "       llsim validate SCENARIO.yaml [--set PATH=VALUE]... [--seed N]\n"
    "       llsim sweep SCENARIO.yaml [--grid PATH=V1,V2,...]... [--seeds N] [--jobs J] [--out DIR] [--set "
    "PATH=VALUE]...\n"
    "                   [--slurm [--partition P] [--time T] [--no-submit] | --collect]\n"
    "       llsim plan SCENARIO.yaml (--axis PATH=SPEC | --unimodal PATH=SPEC)... [--target METRIC>=V]...\n"
    "                   [--objective METRIC] [--maximize] [--seeds N] [--jobs J | --slurm [--partition P] [--time T]]\n"
    "                   [--out DIR] [--exhaustive] [--plot]\n"
    "       llsim models [--markdown]\n"
    "       llsim trace stats TRACE [--format F] [--cache-blocks N,...] [--nodes N] [--json] [--skip-bad-lines]\n"
    "       llsim calibrate --model M --gpu G (--steps F | --profile F | --attention F | --cpu-overheads F\n"
    "                   | --all-reduce F) [--fit K,...] [--start C] [--folds K] [--seed N] [--errors FILE]\n"
    "                   [--out FILE]\n"
    "       llsim calibrate --requests LOG --scenario S --phase P [--format F] [--max-runs N] [--fit K,...]\n"
    "                   [--start C] [--folds K] [--errors FILE] [--out FILE]\n"
    "       llsim --help | --version      (and llsim COMMAND --help)\n";

const std::vector<std::string> kCommands = {"run", "validate", "sweep", "plan", "models", "trace", "calibrate", "help"};

struct RunArguments {
  std::string scenario;
  std::string out;
  std::vector<std::string> overrides;
  std::string seed;
  bool quiet = false;
  bool plot  = false;
  std::vector<std::string> log_settings;
};

LoadOptions load_options(const RunArguments& a)
{
  LoadOptions load;
  load.overrides = a.overrides;
  if (a.seed.empty())
    return load;
  size_t used          = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(a.seed, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != a.seed.size() || a.seed[0] == '-')
    throw CLI::ValidationError("--seed expects a non-negative integer, got '" + a.seed + "'");
  load.seed = v;
  return load;
}

void check_log_settings(const std::vector<std::string>& settings)
{
  for (const auto& s : settings) {
    try {
      xbt_log_setting(s);
    } catch (const std::invalid_argument& e) {
      throw CLI::ValidationError(e.what());
    }
  }
}

void add_scenario_options(CLI::App& command, RunArguments& a)
{
  command.add_option("SCENARIO", a.scenario, "the scenario file (YAML)")->required();
  command
      .add_option("--set", a.overrides,
                  "override a value: PATH is dotted, phases are addressed by name (--set phases.stage.bytes=20GB); "
                  "VALUE is read as YAML. Repeatable")
      ->type_name("PATH=VALUE")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  command.add_option("--seed", a.seed, "the scenario's random seed (overrides 'seed:')")->type_name("N");
}

// The scenario's notes (figures assumed rather than measured), each once, before the run.
void print_notes(const Scenario& scenario)
{
  for (const std::string& note : scenario.notes)
    std::cerr << "llsim: note: " << note << "\n";
}

int run_command(const RunArguments& a)
{
  const LoadOptions load = load_options(a);
  check_log_settings(a.log_settings);
  const auto started        = std::chrono::steady_clock::now();
  Scenario scenario         = load_scenario(a.scenario, load);
  const std::string out_dir = a.out.empty() ? "out/" + scenario.name : a.out;
  RunFolder folder(out_dir);
  print_notes(scenario);
  const bool progress           = !a.quiet && isatty(STDERR_FILENO);
  const SimulationResult result = simulate(scenario, SimulationOptions{progress, a.log_settings});
  const double wall_s           = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  write_outputs(folder.staging(), scenario, result, wall_s);
  write_file_atomically(folder.staging() + "/report.md", run_report(scenario, load, result, {}));
  folder.publish();
  std::cout << (a.quiet ? run_footer(scenario, result, wall_s, out_dir)
                        : summary_table(scenario, result, wall_s, out_dir));
  // Plots join the published run: a run killed while plotting is whole, with fewer plots.
  if (a.plot) {
    run_plot_script(out_dir);
    write_file_atomically(out_dir + "/report.md", run_report(scenario, load, result, plots_in(out_dir)));
  }
  return kExitOk;
}

int validate_command(const RunArguments& a)
{
  const Scenario scenario = load_scenario(a.scenario, load_options(a));
  print_notes(scenario);
  int64_t hosts = 0;
  for (const auto& g : scenario.platform->groups)
    hosts += g.count;
  std::cout << a.scenario << ": valid (scenario '" << scenario.name << "', " << scenario.platform->groups.size()
            << " groups, " << hosts << " hosts, " << scenario.phases.size() << " phases)\n";
  return kExitOk;
}

struct CommandLine {
  CLI::App app{"llsim: discrete-event simulator of the storage lifecycle of large language models", "llsim"};
  RunArguments run, validate;
  SweepArguments sweep;
  PlanArguments plan;
  TraceArguments trace;
  CalibrateArguments calibrate;
  CLI::App* run_command       = nullptr;
  CLI::App* validate_command  = nullptr;
  CLI::App* sweep_command     = nullptr;
  CLI::App* plan_command      = nullptr;
  CLI::App* models_command    = nullptr;
  CLI::App* trace_command     = nullptr;
  CLI::App* calibrate_command = nullptr;
  bool models_markdown        = false;

  CommandLine()
  {
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("llsim ") + LLSIM_VERSION);
    app.footer(std::string("\n") + kUsage + "\nRun 'llsim COMMAND --help' for a command's options.");

    run_command = app.add_subcommand("run", "simulate a scenario and write its results");
    add_scenario_options(*run_command, run);
    run_command->add_option("--out", run.out, "output directory (default: out/<scenario name>/)")->type_name("DIR");
    run_command->add_flag("--quiet", run.quiet,
                          "no progress line and no table of phases: only the wall time, peak memory and outputs lines");
    run_command->add_flag("--plot", run.plot, "draw the run's plots (analysis/plot.py, needs python3-matplotlib)");
    run_command
        ->add_option("--log", run.log_settings,
                     "log category CAT at LEVEL (trace debug verbose info warning error critical) on stderr; "
                     "llsim.svc.storage is sim/svc/storage.cpp, llsim.svc all services, llsim everything. Repeatable")
        ->type_name("CAT:LEVEL")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    run_command->footer(
        "Writes DIR/summary.json, DIR/report.md, DIR/<phase>.csv, DIR/resolved.yaml and resolved.json.\n"
        "Exit status: 0 success, 2 bad command line or scenario, 1 failure during simulation.");

    validate_command = app.add_subcommand("validate", "load and check a scenario, its platform and every phase's "
                                                      "parameters; simulate nothing (exit 0 if valid, 2 otherwise)");
    add_scenario_options(*validate_command, validate);

    sweep_command  = add_sweep_command(app, sweep);
    plan_command   = add_plan_command(app, plan);
    models_command = app.add_subcommand("models", "list every interface, its implementations and their parameters "
                                                  "(type, unit, default, description) and metrics");
    models_command->add_flag("--markdown", models_markdown, "write the catalogue as Markdown (docs/models.md)");
    trace_command     = add_trace_command(app, trace);
    calibrate_command = add_calibrate_command(app, calibrate);
  }

  int dispatch(const std::vector<std::string>& args)
  {
    for (auto [command, out] :
         {std::pair{run_command, &run.out}, std::pair{sweep_command, &sweep.out}, std::pair{plan_command, &plan.out}})
      if (command->parsed() && command->count("--out") > 0 && out->empty())
        throw ConfigError("--out expects a directory, got ''");
    if (run_command->parsed())
      return llsim::run_command(run);
    if (validate_command->parsed())
      return llsim::validate_command(validate);
    if (sweep_command->parsed())
      return llsim::sweep_command(sweep, args);
    if (plan_command->parsed())
      return llsim::plan_command(plan, args);
    if (trace_command->parsed())
      return trace_stats_command(trace);
    if (calibrate_command->parsed())
      return llsim::calibrate_command(calibrate);
    std::cout << models_listing(models_markdown);
    return kExitOk;
  }
};

// CLI11 wants argv in reverse order for parse(vector).
std::vector<std::string> reversed(const std::vector<std::string>& args)
{
  return std::vector<std::string>(args.rbegin(), args.rend());
}

// The lines of kUsage about `command` (its line and the continuation lines below it), or "".
std::string usage_of(const std::string& command)
{
  std::string out;
  bool in_command = false;
  for (const auto& line : split(kUsage, '\n')) {
    const std::string text = trim(line.rfind("usage:", 0) == 0 ? line.substr(6) : line);
    if (text.rfind("llsim ", 0) == 0)
      in_command = split(text, ' ')[1] == command;
    if (in_command && !text.empty())  // a continuation line keeps its indentation
      out += (out.empty() ? "usage: " + text : line) + "\n";
  }
  return out;
}

// The message first, then only the usage of the command given (the whole usage would bury it).
int usage_error(const std::string& message, const std::string& command = "")
{
  const std::string usage = usage_of(command);
  std::cerr << "llsim: error: " << message << "\n"
            << (usage.empty() ? std::string(kUsage) : usage + "(llsim " + command + " --help explains each option)\n");
  return kExitConfigError;
}

}  // namespace

int main_with_args(const std::vector<std::string>& args)
{
  if (!RegistryCatalog::errors().empty()) {
    for (const auto& e : RegistryCatalog::errors())
      std::cerr << "llsim: internal error: " << e << "\n";
    return kExitSimulationFailure;
  }
  if (args.empty()) {
    std::cout << "llsim: discrete-event simulator of the storage lifecycle of large language models\n\n" << kUsage;
    return kExitConfigError;
  }
  if (args[0].rfind("-", 0) != 0 && std::find(kCommands.begin(), kCommands.end(), args[0]) == kCommands.end())
    return usage_error(unknown_word("command", args[0], kCommands));
  CommandLine cli;
  try {
    cli.app.parse(reversed(args[0] == "help" ? std::vector<std::string>{"--help"} : args));
    return cli.dispatch(args);
  } catch (const CLI::CallForHelp&) {
    // The help of the innermost command given, its usage line naming the commands above it.
    CLI::App* shown = &cli.app;
    std::string above;
    while (!shown->get_subcommands().empty()) {
      above += (above.empty() ? "" : " ") + shown->get_name();
      shown = shown->get_subcommands().front();
    }
    std::cout << shown->help(above);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    std::cout << "llsim " << LLSIM_VERSION << "\n";
    return kExitOk;
  } catch (const CLI::ExtrasError&) {
    // CLI11's own message lists them last first.
    return usage_error("not expected: " + join(cli.app.remaining(true), " "), args[0]);
  } catch (const CLI::ParseError& e) {
    if (cli.trace_command->parsed() && cli.trace_command->get_subcommands().empty())
      return usage_error("'trace' expects the subcommand 'stats' (llsim trace stats TRACE)", "trace");
    return usage_error(e.what(), args[0]);
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what(), args[0]);
  } catch (const ConfigError& e) {
    std::cerr << "llsim: error: " << e.what() << "\n";
    return kExitConfigError;
  } catch (const SimulationError& e) {
    std::cerr << "llsim: simulation failed: " << e.what() << "\n";
    return kExitSimulationFailure;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "llsim: error: " << e.what() << "\n";
    return kExitSimulationFailure;
  }
}

}  // namespace llsim
