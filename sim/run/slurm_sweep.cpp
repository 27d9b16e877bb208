#include "sim/run/slurm_sweep.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/run/outputs.hpp"
#include "sim/run/sweep_plan.hpp"

#include <sys/wait.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace llsim {

namespace {

std::string command_line(const std::string& program, const std::vector<std::string>& args)
{
  std::string out = shell_quote(program);
  for (const auto& a : args)
    out += " " + shell_quote(a);
  return out;
}

// The #SBATCH lines of a script (sbatch reads them without a shell, hence no spaces in `log`),
// then the move to the directory the sweep was started from, which relative paths start from.
std::string preamble(const std::string& job_name, const std::string& log, const SlurmOptions& options)
{
  std::string safe_name = job_name;
  for (char& c : safe_name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      c = '_';
  std::string out = "#SBATCH --job-name=" + safe_name + "\n#SBATCH --output=" + log +
                    "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  if (!options.partition.empty())
    out += "#SBATCH --partition=" + options.partition + "\n";
  if (!options.time.empty())
    out += "#SBATCH --time=" + options.time + "\n";
  return out + "set -euo pipefail\ncd " + shell_quote(std::filesystem::current_path().string()) + "\n";
}

std::string slurm_dir(const std::string& out_dir)
{
  return std::filesystem::absolute(out_dir + "/slurm").lexically_normal().string();
}

// Runs `command` through the shell; returns its exit status and standard output and error.
std::pair<int, std::string> shell_output(const std::string& command)
{
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr)
    throw SimulationError("cannot run " + command);
  std::string output;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr)
    output += buffer;
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 1, output};
}

// Runs `sbatch --parsable ARGS SCRIPT`; returns the job id (of the line "ID" or "ID;cluster").
std::string sbatch(const std::vector<std::string>& args, const std::string& script)
{
  std::vector<std::string> all = {"--parsable"};
  all.insert(all.end(), args.begin(), args.end());
  all.push_back(script);
  const std::string command = command_line("sbatch", all);
  const auto [code, output] = shell_output(command);
  // The id is a line of its own: sites' submit plugins may print notes around it.
  std::istringstream lines(output);
  std::string line;
  while (code == 0 && std::getline(lines, line)) {
    const std::string id = trim(line.substr(0, line.find(';')));
    if (!id.empty() && id.find_first_not_of("0123456789") == std::string::npos)
      return id;
  }
  throw SimulationError(command + " failed (exit " + std::to_string(code) + "): " + trim(output));
}

}  // namespace

void check_slurm_submission(const std::string& out_dir, const SlurmOptions& options)
{
  const std::string dir = slurm_dir(out_dir);
  if (shell_quote(dir) != dir)
    throw ConfigError("--slurm needs an output directory of letters, digits and _-./=:,@+% only (the #SBATCH lines "
                      "cannot quote others), got '" +
                      dir + "'");
  if (!options.submit)
    return;
  if (shell_output("command -v sbatch").first != 0)
    throw ConfigError("sbatch was not found on PATH: run the sweep on a Slurm login node, or use --no-submit to "
                      "write the scripts only");
  // sbatch checks the partition and time limit without submitting, so a mistake in them is
  // found before any script is written.
  std::vector<std::string> probe = {"--test-only", "--ntasks=1", "--wrap=true"};
  if (!options.partition.empty())
    probe.push_back("--partition=" + options.partition);
  if (!options.time.empty())
    probe.push_back("--time=" + options.time);
  const auto [probe_code, probe_output] = shell_output(command_line("sbatch", probe));
  if (probe_code != 0)
    throw ConfigError("Slurm refuses the sweep's jobs (" + command_line("sbatch", probe) + "): " + trim(probe_output));
  std::ifstream jobs(dir + "/jobs.txt");
  std::string role, id, ids;
  while (jobs >> role >> id)
    ids += (ids.empty() ? "" : ",") + id;
  if (ids.empty())
    return;
  const auto [code, queued] = shell_output("squeue -h -o %i -j " + shell_quote(ids));
  if (code == 0 && !trim(queued).empty())
    throw ConfigError("jobs " + ids + " of an earlier submission into " + out_dir + " are still queued or running (" +
                      dir + "/jobs.txt); wait for them (squeue -j " + ids + ") or scancel them first");
}

void check_slurm_time(const std::string& time)
{
  static const std::regex format(R"(\d+(:\d+){0,2}|\d+-\d+(:\d+){0,2})");
  if (!std::regex_match(time, format))
    throw std::invalid_argument("--time expects a Slurm time limit (MINUTES, H:M:S, D-H or D-H:M:S), got '" + time +
                                "'");
}

SlurmJobs submit_sweep(const std::string& out_dir, const std::string& name,
                       const std::vector<std::vector<std::string>>& runs, const std::vector<std::string>& collector,
                       const SlurmOptions& options)
{
  const std::string llsim = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string dir   = slurm_dir(out_dir);
  std::filesystem::create_directories(dir);
  std::string tasks;
  for (const auto& r : runs)
    tasks += command_line(llsim, r) + "\n";
  write_file_atomically(dir + "/tasks.txt", tasks);

  SlurmJobs jobs{"", "", dir + "/array.sh", dir + "/collect.sh"};
  write_file_atomically(jobs.array_script, "#!/bin/bash\n# llsim sweep '" + name +
                                               "': task k runs line k + 1 of tasks.txt (llsim sweep --slurm).\n" +
                                               "#SBATCH --array=0-" + std::to_string(runs.size() - 1) + "\n" +
                                               preamble("llsim-" + name, dir + "/task_%a.log", options) +
                                               "command=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " +
                                               shell_quote(dir + "/tasks.txt") + ")\neval \"$command\"\n");
  write_file_atomically(jobs.collector_script,
                        "#!/bin/bash\n# llsim sweep '" + name + "': writes results.csv once the array has ended.\n" +
                            preamble("llsim-" + name + "-collect", dir + "/collect.log", options) + "exec " +
                            command_line(llsim, collector) + "\n");
  if (!options.submit)
    return jobs;
  jobs.array_job = sbatch({}, jobs.array_script);
  try {
    jobs.collector_job = sbatch({"--dependency=afterany:" + jobs.array_job}, jobs.collector_script);
  } catch (const SimulationError& e) {
    // An array nobody collects is not left queued.
    const auto [code, output] = shell_output("scancel " + shell_quote(jobs.array_job));
    throw SimulationError(std::string(e.what()) + "; the job array " + jobs.array_job + " it was to collect " +
                          (code == 0 ? "was cancelled" : "could not be cancelled (scancel: " + trim(output) + ")"));
  }
  write_file_atomically(dir + "/jobs.txt", "array " + jobs.array_job + "\ncollector " + jobs.collector_job + "\n");
  return jobs;
}

void submit_planned_sweep(const SweepRequest& request, const SweepPlan& plan)
{
  std::vector<std::vector<std::string>> tasks;
  for (size_t j : plan.missing)
    tasks.push_back(run_arguments(request, plan, j));
  SlurmJobs submitted;
  try {
    submitted = submit_sweep(plan.out, plan.name, tasks, request.collector, request.slurm_options);
  } catch (const SimulationError&) {
    if (!plan.created.empty())  // nothing of a submission that failed is left behind
      std::filesystem::remove_all(plan.created);
    throw;
  }
  if (submitted.array_job.empty())
    std::cout << "wrote " << submitted.array_script << " (" << tasks.size() << " tasks) and "
              << submitted.collector_script << "; submit with: jobid=$(sbatch --parsable " << submitted.array_script
              << ") && sbatch --dependency=afterany:$jobid " << submitted.collector_script << "\n";
  else
    std::cout << "submitted job array " << submitted.array_job << " (" << tasks.size() << " tasks) and collector job "
              << submitted.collector_job << "; " << plan.out << "/results.csv is written when job "
              << submitted.collector_job << " ends (squeue -j " << submitted.array_job << "," << submitted.collector_job
              << ")\n";
}

}  // namespace llsim
