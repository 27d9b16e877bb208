#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/mw/task_scheduler.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace llsim;

namespace {

std::unique_ptr<TaskScheduler> make(const std::string& yaml)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "s.yaml";
  return Registry<TaskScheduler>::create(YamlRef(YAML::Load(yaml), "scheduler", source), {});
}

// Two free workers, A (1 flop/s) and B (2 flop/s), transfers negligible; tasks of 4, 2, 8 flop.
// ETC:      t0  t1  t2
//      A     4   2   8
//      B     2   1   4
const std::vector<SchedTask> kTasks  = {{4, 0, 0}, {2, 0, 0}, {8, 0, 0}};
const std::vector<SchedWorker> kFree = {{1, 1e30, 0, 0, true}, {2, 1e30, 0, 0, true}};

using Pairs = std::vector<std::pair<size_t, size_t>>;

Pairs pairs(const std::vector<Assignment>& a)
{
  Pairs out;
  for (const auto& x : a)
    out.emplace_back(x.task, x.worker);
  return out;
}

// Largest completion time of the assignments, replaying them in order on the workers' ready times.
double makespan(const std::vector<Assignment>& a, const std::vector<SchedTask>& tasks,
                const std::vector<SchedWorker>& workers, double now)
{
  const Eigen::MatrixXd etc = expected_times(tasks, workers);
  std::vector<double> ready;
  for (const auto& w : workers)
    ready.push_back(std::max(now, w.ready_s));
  double end = now;
  for (const auto& x : a) {
    ready[x.worker] += etc(x.task, x.worker);
    end = std::max(end, ready[x.worker]);
  }
  return end;
}

}  // namespace

TEST_CASE("schedulers: ETC matrix", "[task_scheduler]")
{
  const Eigen::MatrixXd etc = expected_times({{4, 10, 10}}, {{1, 10, 0, 0, true}, {2, 20, 0, 0, true}});
  CHECK(etc(0, 0) == Approx(4 + 2));
  CHECK(etc(0, 1) == Approx(2 + 1));
}

TEST_CASE("schedulers: minmin maps the batch, smallest minimum first", "[task_scheduler]")
{
  const auto s = make("{impl: minmin}");
  const auto a = s->schedule(kTasks, kFree, 0);
  // t1 -> B (CT 1), then t0 -> B (CT 3, A would be 4), then t2 -> B (CT 7, A would be 8).
  CHECK(pairs(a) == Pairs{{1, 1}, {0, 1}, {2, 1}});
  CHECK(makespan(a, kTasks, kFree, 0) == Approx(7));
}

TEST_CASE("schedulers: maxmin maps the batch, largest minimum first", "[task_scheduler]")
{
  const auto s = make("{impl: maxmin}");
  const auto a = s->schedule(kTasks, kFree, 0);
  // t2 -> B (CT 4), then t0 -> A (CT 4 beats B's 6), then t1 -> B (CT 5 beats A's 6).
  CHECK(pairs(a) == Pairs{{2, 1}, {0, 0}, {1, 1}});
  CHECK(makespan(a, kTasks, kFree, 0) == Approx(5));
}

TEST_CASE("schedulers: mct takes tasks in arrival order to the earliest completion", "[task_scheduler]")
{
  const auto s = make("{impl: mct}");
  const auto a = s->schedule(kTasks, kFree, 0);
  // t0 -> B (2), t1 -> A (2 beats B's 3), t2 -> B (6 beats A's 10).
  CHECK(pairs(a) == Pairs{{0, 1}, {1, 0}, {2, 1}});
  CHECK(makespan(a, kTasks, kFree, 0) == Approx(6));
}

TEST_CASE("schedulers: fcfs gives arrival order to the longest-free workers, one each", "[task_scheduler]")
{
  const auto s = make("{impl: fcfs}");
  CHECK(s->binds_late());
  const auto a = s->schedule(kTasks, kFree, 0);
  CHECK(pairs(a) == Pairs{{0, 0}, {1, 1}});  // t2 waits for a free worker
  CHECK(makespan(a, kTasks, kFree, 0) == Approx(4));
  // B has been free longer than A: it gets the first task.
  const std::vector<SchedWorker> b_first = {{1, 1e30, 5, 5, true}, {2, 1e30, 3, 3, true}};
  CHECK(pairs(s->schedule(kTasks, b_first, 5)) == Pairs{{0, 1}, {1, 0}});
}

TEST_CASE("schedulers: minmax is maxmin over unassigned tasks and free workers only", "[task_scheduler]")
{
  const auto s = make("{impl: minmax}");
  CHECK(s->binds_late());
  const auto a = s->schedule(kTasks, kFree, 0);
  // t2 -> B (largest minimum CT, 4), then t0 -> A (4); t1 stays unassigned.
  CHECK(pairs(a) == Pairs{{2, 1}, {0, 0}});
  CHECK(makespan(a, kTasks, kFree, 0) == Approx(4));
}

TEST_CASE("schedulers: ready times of busy workers count", "[task_scheduler]")
{
  // Three workers of 1 flop/s; worker 0 is busy until t=10, workers 1 and 2 until 3 and 0.
  const std::vector<SchedWorker> workers = {{1, 1e30, 10, 0, false}, {1, 1e30, 3, 0, false}, {1, 1e30, 0, 0, true}};
  const std::vector<SchedTask> tasks     = {{5, 0, 0}, {1, 0, 0}, {2, 0, 0}, {4, 0, 0}};
  const auto mct                         = make("{impl: mct}")->schedule(tasks, workers, 0);
  // t0 -> w2 (5), t1 -> w1 (4), t2 -> w1 (6 beats w2's 7), t3 -> w2 (9 beats w1's 10 and w0's 14).
  CHECK(pairs(mct) == Pairs{{0, 2}, {1, 1}, {2, 1}, {3, 2}});
  CHECK(makespan(mct, tasks, workers, 0) == Approx(9));
  const auto minmin = make("{impl: minmin}")->schedule(tasks, workers, 0);
  // t1 -> w2 (1); t2 -> w2 (3); then t3 ties w1 and w2 at 7 and t0 ties them at 8: the lower
  // worker wins ties, so t3 -> w1 (7); t0's best moves to w2 (8 vs w1's 12): t0 -> w2.
  CHECK(pairs(minmin) == Pairs{{1, 2}, {2, 2}, {3, 1}, {0, 2}});
  CHECK(makespan(minmin, tasks, workers, 0) == Approx(8));
}

TEST_CASE("schedulers: window and period are checked", "[task_scheduler]")
{
  CHECK(make("{impl: minmax, window: 7, period: 2s}")->window() == 7);
  CHECK(make("{impl: minmax, window: 7, period: 2s}")->period_s() == 2);
  CHECK_THROWS_WITH(make("{impl: minmax, window: 0}"), Catch::Contains("scheduler.window") && Catch::Contains(">= 1"));
  CHECK_THROWS_WITH(make("{impl: minmaxx}"), Catch::Contains("did you mean 'minmax'"));
}

TEST_CASE("scheduler locality: a free worker takes the oldest task it holds, else the oldest", "[task_scheduler]")
{
  auto locality = make("{impl: locality}");
  CHECK(locality->binds_late());
  // Tasks 0..3 with inputs on hosts 7, 8, 8, 9; workers on hosts 8 (free since 1), 5 (free
  // since 0), 9 (busy).
  const std::vector<SchedTask> tasks     = {{1, 10, 0, {7}}, {1, 10, 0, {8}}, {1, 10, 0, {8}}, {1, 10, 0, {9}}};
  const std::vector<SchedWorker> workers = {{1, 1, 0, 1, true, 8}, {1, 1, 0, 0, true, 5}, {1, 1, 5, 0, false, 9}};
  const auto a                           = locality->schedule(tasks, workers, 0);
  // Host 5 (free longest) holds nothing: the oldest task, 0. Host 8 holds 1 and 2: task 1.
  REQUIRE(a.size() == 2);
  CHECK((a[0].task == 0 && a[0].worker == 1));
  CHECK((a[1].task == 1 && a[1].worker == 0));
  // ETC: the input counts only where it is not held.
  const Eigen::MatrixXd etc = expected_times(tasks, workers);
  CHECK(etc(1, 0) == Approx(1));
  CHECK(etc(1, 1) == Approx(11));
}
