// `llsim plan --slurm`: the search stays in the llsim process that was started (on a login node,
// or in a job of its own), and each point's runs go to Slurm as one job array, whose task k runs
// line k + 1 of DIR/slurm/<point>/tasks.txt and logs to task_<k>.log there. The plan waits until
// the array has left the queue (squeue), then reads the runs' summaries as it reads local ones.
// The array's id is kept in DIR/slurm/jobs.txt: a plan started again while it is queued is
// refused (check_slurm_submission), one started after it resumes from the runs it finished.
#pragma once
#include "sim/study/plan_runs.hpp"
#include "sim/study/slurm_jobs.hpp"

namespace llsim {

// `name`: the scenario's, for the job names.
RunMaker slurm_runs(const std::string& out_dir, const std::string& name, const SlurmOptions& options);

}  // namespace llsim
