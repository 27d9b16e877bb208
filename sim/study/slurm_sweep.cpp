#include "sim/study/slurm_sweep.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/run/outputs.hpp"
#include "sim/study/sweep_plan.hpp"

#include <filesystem>
#include <iostream>

namespace llsim {

SlurmJobs submit_sweep(const std::string& out_dir, const std::string& name,
                       const std::vector<std::vector<std::string>>& runs, const std::vector<std::string>& collector,
                       const SlurmOptions& options)
{
  const std::string dir = slurm_dir(out_dir);
  std::filesystem::create_directories(dir);
  std::string tasks;
  for (const auto& r : runs)
    tasks += llsim_command(r) + "\n";
  write_file_atomically(dir + "/tasks.txt", tasks);

  SlurmJobs jobs{"", "", dir + "/array.sh", dir + "/collect.sh"};
  write_file_atomically(jobs.array_script,
                        array_script("llsim sweep '" + name +
                                         "': task k runs line k + 1 of tasks.txt (llsim sweep "
                                         "--slurm).",
                                     "llsim-" + name, dir + "/tasks.txt", runs.size(), dir + "/task_%a.log", options));
  write_file_atomically(jobs.collector_script,
                        job_script("llsim sweep '" + name + "': writes results.csv once the array has ended.",
                                   "llsim-" + name + "-collect", dir + "/collect.log", {}, options) +
                            "exec " + llsim_command(collector) + "\n");
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
