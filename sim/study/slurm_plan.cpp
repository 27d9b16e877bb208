#include "sim/study/slurm_plan.hpp"

#include "sim/core/text.hpp"
#include "sim/run/outputs.hpp"
#include "sim/study/sweep_plan.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

namespace llsim {

namespace {

// Until squeue no longer lists the job (or cannot say: the plan then reads what the runs left),
// asking at most every 10 s.
void wait_for_job(const std::string& id)
{
  constexpr double kLongestPause_s = 10;
  double pause_s                   = 0.2;
  while (true) {
    const auto [code, queued] = shell_output("squeue -h -o %i -j " + shell_quote(id));
    if (code != 0 || trim(queued).empty())
      return;
    std::this_thread::sleep_for(std::chrono::duration<double>(pause_s));
    pause_s = std::min(2 * pause_s, kLongestPause_s);
  }
}

}  // namespace

RunMaker slurm_runs(const std::string& out_dir, const std::string& name, const SlurmOptions& options)
{
  return [=](const std::string& point, const std::vector<PendingRun>& runs) {
    const std::string dir = slurm_dir(out_dir) + "/" + point;
    std::filesystem::create_directories(dir);
    std::string tasks;
    for (const PendingRun& r : runs)
      tasks += llsim_command(r.args) + "\n";
    write_file_atomically(dir + "/tasks.txt", tasks);
    const std::string script = dir + "/array.sh";
    write_file_atomically(script, array_script("llsim plan '" + name + "', point " + point +
                                                   ": task k runs line k + 1 of tasks.txt (llsim plan --slurm).",
                                               "llsim-" + name + "-" + point, dir + "/tasks.txt", runs.size(),
                                               dir + "/task_%a.log", options));
    const std::string job = sbatch({}, script);
    write_file_atomically(slurm_dir(out_dir) + "/jobs.txt", "array " + job + "\n");
    wait_for_job(job);
    for (size_t k = 0; k < runs.size(); ++k)
      if (!std::filesystem::exists(runs[k].dir + "/summary.json")) {
        const std::string log = dir + "/task_" + std::to_string(k) + ".log";
        return runs[k].dir + " failed in Slurm job " + job + ", task " + std::to_string(k) + " (" + log + "):\n" +
               (std::filesystem::exists(log) ? read_text(log) : std::string("no log\n"));
      }
    return std::string();
  };
}

}  // namespace llsim
