// Phase kind `tasks`: a master-worker application (bag of tasks) on a possibly heterogeneous,
// unreliable platform; the scheduler and the checkpoint-sharing policy decide task turnaround.
//
//   - name: bag
//     kind: tasks
//     master: head                 group whose first host runs the master
//     workers: volunteers          group whose every host runs a worker
//     tasks: {count: 20000, flops: {dist: lognormal, mean: 2TFlops, sigma: 0.5}, input: 50MB,
//             output: 5MB, arrival: {dist: exponential, mean: 50ms}}   or {trace: tasks.csv}
//     scheduler: {impl: minmax, window: 1000, period: 1s}             default {impl: fcfs}
//     checkpoint: {impl: shared, interval: 10min, size: 200MB, storage: ckpt}  default {impl: none}
//     failure_timeout: 1min        how long the master takes to notice a worker is gone
//     give_up_after: 1000          failed attempts in a row of one task, none getting it farther
//                                  (past its farthest checkpoint, or to its end), that stop the run
//     tracking: {period: 1min}     spacing of the rows of <phase>.csv
//
// Workers fail as their hosts do: the scenario's `faults:` entry for the worker group (e.g.
// {group: volunteers, impl: exponential, mtbf: 6h, downtime: 30min}). A task whose workers fail
// faster than it can finish or reach a checkpoint cannot progress: after give_up_after such
// attempts in a row the run stops with exit 1, naming the task and the figures
// (sim/mw/task_stalls.hpp). Checkpoints go to a
// storage service: `local` to one whose servers are the workers (their own disks), `shared` to
// any other. The runtime is sim/mw/master_worker.hpp. Metrics: the declared table kTasksMetrics
// below (`llsim models` lists it). CSVs: <phase>.csv (queued, running, done, workers up over
// time), <phase>_worker_states.csv (idle, busy or down per worker at the same times),
// <phase>_tasks.csv (per task: submit, start, end, worker, attempts), <phase>_workers.csv (per
// worker totals).
// Source: the master-worker simulator of the founding documents; schedulers after Braun et al.,
// JPDC 2001.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_fcfs_identical.yaml
#include "sim/core/percentile.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/mw/master_worker.hpp"
#include "sim/mw/task_source.hpp"
#include "sim/phase/phase.hpp"
#include "sim/phase/work_units.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

namespace llsim {

namespace {

const ParamTable& tracking_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("period", Dimension::Duration, "time between two rows of the phase CSV")
          .defaults("1min")
          .positive(),
  };
  return t;
}

const ParamTable kTasksParams = {
    ParamSpec::text("master", "group whose first host runs the master"),
    ParamSpec::text("workers", "group whose hosts run the workers"),
    ParamSpec::section("tasks", "a generator {count, flops, input, output, arrival} or {trace: file.csv}")
        .with_fields(task_source_params()),
    ParamSpec::choice<TaskScheduler>("scheduler", "the task scheduler {impl, window, period}").defaults("{impl: fcfs}"),
    ParamSpec::choice<TaskCheckpointing>("checkpoint", "checkpoint sharing {impl, ...}").defaults("{impl: none}"),
    ParamSpec::quantity("failure_timeout", Dimension::Duration, "time for the master to notice a worker is gone")
        .defaults("1min")
        .at_least(0),
    ParamSpec::integer("give_up_after", "failed attempts in a row of one task, none getting it past its farthest "
                                        "checkpoint or to its end, that stop the run (it cannot progress)")
        .defaults("1000")
        .at_least(1),
    ParamSpec::section("tracking", "{period}: task tracking by the master")
        .defaults("{}")
        .with_fields(tracking_params()),
};

class TasksPhase : public Phase {
 public:
  TasksPhase(const Params& p, const PhaseLoadContext& c)
      : name_(c.phase_name)
      , seed_(c.seed)
      , master_host_(c.platform.group_param(p, "master").first_host)
      , workers_group_(c.platform.group_param(p, "workers"))
      , failure_timeout_s_(p.quantity("failure_timeout"))
      , tracking_period_s_(p.section("tracking", tracking_params()).quantity("period"))
      , give_up_after_(p.integer("give_up_after"))
      , tracking_rows_(tracking_row_limit(p.section("tracking", tracking_params()).located("period")))
      , checkpoint_at_(p.raw("checkpoint").place_of("interval"))
  {
    c.claims.push_back({workers_group_.name, p.raw("workers")});
    c.uses.push_back(c.platform.group_of(master_host_).name);
    Rng task_rng   = Rng::stream(seed_, "phase." + name_ + ".tasks");
    tasks_         = load_tasks(p.section("tasks", task_source_params()), task_rng);
    scheduler_     = Registry<TaskScheduler>::create(p.raw("scheduler"), {});
    checkpointing_ = Registry<TaskCheckpointing>::create(p.raw("checkpoint"), {c.platform, workers_group_, c.services});
  }

  void run(PhaseRuntime& runtime) override
  {
    MasterWorkerSetup setup{runtime.platform, runtime.faults,     master_host_,       workers_group_, *scheduler_,
                            *checkpointing_,  failure_timeout_s_, tracking_period_s_, runtime.label};
    setup.give_up_after = give_up_after_;
    setup.tracking_rows = &tracking_rows_;
    setup.checkpoint_at = checkpoint_at_;
    runtime_            = std::make_unique<MasterWorker>(setup, tasks_);
    runtime_->run();
  }

  std::vector<GroupUse> usage() const override
  {
    return {{workers_group_.name, std::nullopt, runtime_ ? runtime_->totals().busy_s : 0, std::nullopt}};
  }

  Metrics metrics() const override
  {
    if (!runtime_)
      return {};
    const auto& records = runtime_->records();
    const auto& totals  = runtime_->totals();
    std::vector<double> turnaround;
    double sum = 0, reexecutions = 0;
    for (size_t i = 0; i < records.size(); ++i) {
      reexecutions += std::max(0, records[i].attempts - 1);
      if (records[i].end_s < 0)
        continue;
      // Submission times are relative to the phase start; end times are absolute.
      turnaround.push_back(records[i].end_s - (phase_start_s() + tasks_[i].submit_s));
      sum += turnaround.back();
    }
    const double workers = static_cast<double>(workers_group_.count);
    return {{"tasks", static_cast<double>(tasks_.size())},
            {"completed", static_cast<double>(turnaround.size())},
            {"makespan_s", totals.makespan_s},
            {"mean_turnaround_s", turnaround.empty() ? 0 : sum / static_cast<double>(turnaround.size())},
            {"p95_turnaround_s", percentile(turnaround, 0.95)},
            {"reexecutions", reexecutions},
            {"wasted_flops", std::max(0.0, totals.executed_flops - totals.useful_flops)},
            {"bytes_transferred", totals.transferred_B},
            {"checkpoint_bytes", totals.checkpoint_B},
            {"worker_utilization", totals.makespan_s > 0 ? totals.busy_s / (workers * totals.makespan_s) : 0}};
  }

  std::vector<OutputTable> tables() const override
  {
    if (!runtime_)
      return {};
    CsvWriter per_task;
    per_task.header = {"task", "id", "submit_s", "start_s", "end_s", "worker", "attempts"};
    for (size_t i = 0; i < tasks_.size(); ++i) {
      const TaskRecord& r = runtime_->records()[i];
      per_task.rows.push_back({std::to_string(i), tasks_[i].id, format_number(phase_start_s() + tasks_[i].submit_s),
                               format_number(r.start_s), format_number(r.end_s), std::to_string(r.worker),
                               std::to_string(r.attempts)});
    }
    return {{"", runtime_->tracking()},
            {"tasks", per_task},
            {"workers", runtime_->worker_table()},
            {"worker_states", runtime_->worker_states()}};
  }

 private:
  double phase_start_s() const { return runtime_->start_s(); }

  std::string name_;
  uint64_t seed_;
  HostId master_host_;
  const GroupSpec& workers_group_;
  double failure_timeout_s_;
  double tracking_period_s_;
  int64_t give_up_after_;
  WorkCounter tracking_rows_;
  std::string checkpoint_at_;
  std::vector<Task> tasks_;
  std::unique_ptr<TaskScheduler> scheduler_;
  std::unique_ptr<TaskCheckpointing> checkpointing_;
  std::unique_ptr<MasterWorker> runtime_;
};

// What metrics() writes, in its order (sim/core/metrics.hpp; `llsim models` lists it).
const MetricTable kTasksMetrics = {
    {"tasks", MetricUnit::Count, "tasks submitted"},
    {"completed", MetricUnit::Count, "tasks whose output reached the master"},
    {"makespan_s", MetricUnit::Seconds, "time from the phase's start until the master stopped (every task done)"},
    {"mean_turnaround_s", MetricUnit::Seconds,
     "mean of output back at the master minus submission, over the completed tasks (0 when none)"},
    {"p95_turnaround_s", MetricUnit::Seconds, "95th percentile of the same (0 when none)"},
    {"reexecutions", MetricUnit::Count, "task starts beyond each task's first (after a worker failure)"},
    {"wasted_flops", MetricUnit::Flop, "floating-point operations computed but not part of a result"},
    {"bytes_transferred", MetricUnit::Bytes,
     "bytes of completed transfers: inputs, outputs, checkpoint uploads and downloads"},
    {"checkpoint_bytes", MetricUnit::Bytes, "bytes of checkpoints written (0 with checkpoint none)"},
    {"worker_utilization", MetricUnit::Ratio, "compute time / (workers x makespan)"},
};

}  // namespace

LLSIM_REGISTER(Phase, "tasks", TasksPhase, "master-worker bag of tasks with schedulers, failures, checkpoints",
               kTasksParams);
LLSIM_DECLARE_METRICS(Phase, "tasks", kTasksMetrics);
LLSIM_DECLARE_WORK_UNITS("tasks", {{"completed", 1, "task", "a task completed"}});

}  // namespace llsim
