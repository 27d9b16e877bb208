#include "sim/study/local_sweep.hpp"

#include "sim/core/errors.hpp"
#include "sim/study/child_runs.hpp"

#include <chrono>
#include <filesystem>
#include <stdexcept>

namespace llsim {

namespace {

class LocalSweep {
 public:
  LocalSweep(const SweepRequest& request, const SweepPlan& plan,
             const std::function<void(const SweepProgress&)>& progress)
      : r_(request)
      , plan_(plan)
      , progress_(progress)
      , outcome_{SweepTable(request.axes, plan.points), std::vector<double>(plan.jobs.size(), 0),
                 std::vector<bool>(plan.jobs.size(), false)}
      , left_of_point_(plan.points.size(), request.seeds)
      , started_(std::chrono::steady_clock::now())
  {}

  SweepOutcome run()
  {
    const auto& jobs = plan_.jobs;
    for (size_t j = 0; j < jobs.size() && failure_.empty(); ++j) {
      if (has_result(jobs[j])) {
        outcome_.resumed[j] = true;
        finished(j);
        continue;
      }
      children_.start(j, run_arguments(r_, plan_, j), jobs[j].dir + ".log");
      while (children_.running() >= static_cast<size_t>(r_.jobs))
        reap();
    }
    while (children_.running() > 0)
      reap();
    if (!failure_.empty())
      throw SimulationError("sweep stopped: " + failure_ + "(finished runs are kept in " + plan_.out +
                            "/runs; run the same sweep again to resume)");
    return std::move(outcome_);
  }

 private:
  // Waits for a run to end; a failed one is remembered, so that no new run starts.
  void reap()
  {
    const ChildExit e      = children_.wait_any();
    outcome_.wall_s[e.job] = e.wall_s;
    const std::string log  = plan_.jobs[e.job].dir + ".log";
    if (e.status != 0) {
      if (failure_.empty())
        failure_ = plan_.jobs[e.job].dir + " failed (exit " + std::to_string(e.status) + "):\n" + read_text(log);
      return;
    }
    std::filesystem::remove(log);
    finished(e.job);
  }

  // Job `j` has its results: they go into the table; its point's progress line when it is the
  // point's last seed.
  void finished(size_t j)
  {
    const SweepJob& job            = plan_.jobs[j];
    const std::string summary_path = job.dir + "/summary.json";
    RunSummary summary;
    try {
      summary = read_run_summary(read_text(summary_path));
    } catch (const std::runtime_error& e) {
      throw SimulationError(summary_path + ": " + e.what() + "; delete " + job.dir + " and run the sweep again");
    }
    if (summary.scenario_hash != plan_.scenario_hash)
      throw SimulationError(job.dir + " was run on another text of " + r_.scenario +
                            " (was the file edited during the sweep?); restore it, or delete " + plan_.out +
                            " and run the sweep again");
    if (outcome_.resumed[j])
      outcome_.wall_s[j] = summary.wall_time_s;
    outcome_.table.add({job.point, job.seed, std::move(summary.metrics)});
    done_ += 1;
    ran_ += outcome_.resumed[j] ? 0 : 1;
    if (--left_of_point_[job.point] > 0 || r_.quiet || r_.collect)
      return;
    SweepProgress p;
    p.points_done = done_ / static_cast<size_t>(r_.seeds);
    p.points      = plan_.points.size();
    p.point       = &plan_.points[job.point];
    p.seeds       = r_.seeds;
    p.all_kept    = ran_ == 0;
    p.elapsed_s   = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (ran_ > 0)
      p.left_s = p.elapsed_s / static_cast<double>(ran_) * static_cast<double>(plan_.jobs.size() - done_);
    progress_(p);
  }

  const SweepRequest& r_;
  const SweepPlan& plan_;
  const std::function<void(const SweepProgress&)>& progress_;
  SweepOutcome outcome_;
  std::vector<int64_t> left_of_point_;  // seeds of each point not finished yet
  std::chrono::steady_clock::time_point started_;
  size_t done_ = 0, ran_ = 0;  // runs finished, and those of them run now (not kept from before)
  ChildRuns children_;
  std::string failure_;  // the first run that failed; no new run starts after it
};

}  // namespace

SweepOutcome run_local_sweep(const SweepRequest& request, const SweepPlan& plan,
                             const std::function<void(const SweepProgress&)>& progress)
{
  return LocalSweep(request, plan, progress).run();
}

}  // namespace llsim
