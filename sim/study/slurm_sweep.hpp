// A sweep on Slurm (llsim sweep --slurm): a job array with one task per run, each an ordinary
// `llsim run` (the commands are in DIR/slurm/tasks.txt, line k for task k), and a collector job
// that starts when the array has ended and writes the sweep's tables with `llsim sweep ...
// --collect`. The scripts are kept in DIR/slurm/ so a user can read or edit and resubmit them.
#pragma once
#include "sim/study/slurm_jobs.hpp"

#include <string>
#include <vector>

namespace llsim {

struct SweepPlan;
struct SweepRequest;

struct SlurmJobs {
  std::string array_job, collector_job;  // Slurm job ids; empty when not submitted
  std::string array_script, collector_script;
};

// Writes DIR/slurm/{tasks.txt,array.sh,collect.sh} and, with options.submit, submits them
// with sbatch. `runs`: each task's `llsim run` arguments; `collector`: the arguments of the
// `llsim sweep` that collects. Throws SimulationError when sbatch fails or is missing.
SlurmJobs submit_sweep(const std::string& out_dir, const std::string& name,
                       const std::vector<std::vector<std::string>>& runs, const std::vector<std::string>& collector,
                       const SlurmOptions& options);

// The submitter of `llsim sweep --slurm`: submits the plan's missing runs (or with --no-submit
// writes their scripts) and says so on standard output. When the submission fails, the
// directories the sweep created are removed, and the SimulationError is passed on.
void submit_planned_sweep(const SweepRequest& request, const SweepPlan& plan);

}  // namespace llsim
