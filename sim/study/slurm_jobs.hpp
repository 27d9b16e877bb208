// What `llsim sweep --slurm` and `llsim plan --slurm` share: job scripts whose task k runs line
// k + 1 of a file of commands, submitted with sbatch, and the checks made before any of it.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace llsim {

struct SlurmOptions {
  std::string partition;  // "" = the cluster's default
  std::string time;       // "" = the partition's default; else Slurm's time format
  bool submit = true;     // false: write the scripts only
};

// Throws std::invalid_argument unless `time` is in a format sbatch --time accepts: M, M:S,
// H:M:S, D-H, D-H:M or D-H:M:S.
void check_slurm_time(const std::string& time);

// Before anything is written: throws ConfigError when `out_dir` has characters the scripts
// cannot carry, when submitting and sbatch is not on PATH or refuses the partition or time limit
// (sbatch --test-only), or when jobs of an earlier submission into `out_dir` (DIR/slurm/jobs.txt)
// are still queued or running. `command`: sweep or plan, for the messages.
void check_slurm_submission(const std::string& out_dir, const SlurmOptions& options, const std::string& command);

std::string slurm_dir(const std::string& out_dir);  // DIR/slurm, absolute
// A command line of this executable with `args`, quoted for the shell.
std::string llsim_command(const std::vector<std::string>& args);
// A job script: `title` as a comment, the #SBATCH lines (`log` the job's output, no spaces;
// `extra` more directives), then the move to the directory llsim was started from.
std::string job_script(const std::string& title, const std::string& job_name, const std::string& log,
                       const std::vector<std::string>& extra, const SlurmOptions& options);
// A job array script of `tasks` tasks, task k running line k + 1 of `tasks_file`.
std::string array_script(const std::string& title, const std::string& job_name, const std::string& tasks_file,
                         size_t tasks, const std::string& log_pattern, const SlurmOptions& options);
// Runs `sbatch --parsable ARGS SCRIPT`; the job id. Throws SimulationError when sbatch fails.
std::string sbatch(const std::vector<std::string>& args, const std::string& script);
// Runs `command` through the shell; its exit status and standard output and error.
std::pair<int, std::string> shell_output(const std::string& command);

}  // namespace llsim
