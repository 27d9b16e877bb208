#include "sim/study/slurm_jobs.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"

#include <sys/wait.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
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

}  // namespace

std::string slurm_dir(const std::string& out_dir)
{
  return std::filesystem::absolute(out_dir + "/slurm").lexically_normal().string();
}

std::string llsim_command(const std::vector<std::string>& args)
{
  return command_line(std::filesystem::read_symlink("/proc/self/exe").string(), args);
}

// sbatch reads the #SBATCH lines without a shell, hence no spaces in `log`; relative paths start
// from the directory llsim was started in.
std::string job_script(const std::string& title, const std::string& job_name, const std::string& log,
                       const std::vector<std::string>& extra, const SlurmOptions& options)
{
  std::string safe_name = job_name;
  for (char& c : safe_name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      c = '_';
  std::string out = "#!/bin/bash\n# " + title + "\n";
  for (const std::string& e : extra)
    out += "#SBATCH " + e + "\n";
  out += "#SBATCH --job-name=" + safe_name + "\n#SBATCH --output=" + log +
         "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  if (!options.partition.empty())
    out += "#SBATCH --partition=" + options.partition + "\n";
  if (!options.time.empty())
    out += "#SBATCH --time=" + options.time + "\n";
  return out + "set -euo pipefail\ncd " + shell_quote(std::filesystem::current_path().string()) + "\n";
}

std::string array_script(const std::string& title, const std::string& job_name, const std::string& tasks_file,
                         size_t tasks, const std::string& log_pattern, const SlurmOptions& options)
{
  return job_script(title, job_name, log_pattern, {"--array=0-" + std::to_string(tasks - 1)}, options) +
         "command=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " + shell_quote(tasks_file) + ")\neval \"$command\"\n";
}

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

std::string sbatch(const std::vector<std::string>& args, const std::string& script)
{
  std::vector<std::string> all = {"--parsable"};
  all.insert(all.end(), args.begin(), args.end());
  all.push_back(script);
  const std::string command = command_line("sbatch", all);
  const auto [code, output] = shell_output(command);
  // The id is a line of its own ("ID" or "ID;cluster"): sites' submit plugins may print notes
  // around it.
  std::istringstream lines(output);
  std::string line;
  while (code == 0 && std::getline(lines, line)) {
    const std::string id = trim(line.substr(0, line.find(';')));
    if (!id.empty() && id.find_first_not_of("0123456789") == std::string::npos)
      return id;
  }
  throw SimulationError(command + " failed (exit " + std::to_string(code) + "): " + trim(output));
}

void check_slurm_submission(const std::string& out_dir, const SlurmOptions& options, const std::string& command)
{
  const std::string dir = slurm_dir(out_dir);
  if (shell_quote(dir) != dir)
    throw ConfigError("--slurm needs an output directory of letters, digits and _-./=:,@+% only (the #SBATCH lines "
                      "cannot quote others), got '" +
                      dir + "'");
  if (!options.submit)
    return;
  if (shell_output("command -v sbatch").first != 0)
    throw ConfigError("sbatch was not found on PATH: run llsim " + command +
                      " --slurm on a Slurm login node (llsim sweep --slurm --no-submit writes the scripts only)");
  // sbatch checks the partition and time limit without submitting, so a mistake in them is
  // found before any script is written.
  std::vector<std::string> probe = {"--test-only", "--ntasks=1", "--wrap=true"};
  if (!options.partition.empty())
    probe.push_back("--partition=" + options.partition);
  if (!options.time.empty())
    probe.push_back("--time=" + options.time);
  const auto [probe_code, probe_output] = shell_output(command_line("sbatch", probe));
  if (probe_code != 0)
    throw ConfigError("Slurm refuses the " + command + "'s jobs (" + command_line("sbatch", probe) +
                      "): " + trim(probe_output));
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

}  // namespace llsim
