#include "sim/mw/task_source.hpp"

#include "sim/core/csv.hpp"
#include "sim/core/distribution.hpp"
#include "sim/core/errors.hpp"

#include <algorithm>

namespace llsim {

namespace {

// A task holds about 1.6 KB while it runs (tasks_100k: 170 MB): five million take about 8 GB.
constexpr int64_t kMaxTasks = 5000000;

}  // namespace

const ParamTable& task_source_params()
{
  static const ParamTable t = {
      ParamSpec::text("trace", "CSV of tasks (submit_time,flops,input_bytes,output_bytes[,id]); "
                               "instead of the generator keys")
          .may_be_absent(),
      ParamSpec::integer("count", "number of generated tasks").at_least(1).at_most(kMaxTasks).may_be_absent(),
      ParamSpec::distribution("flops", Dimension::Compute, "work of a task (flop)").positive().may_be_absent(),
      ParamSpec::distribution("input", Dimension::Size, "input sent by the master to the worker")
          .at_least(0)
          .may_be_absent(),
      ParamSpec::distribution("output", Dimension::Size, "output returned to the master").at_least(0).may_be_absent(),
      ParamSpec::distribution("arrival", Dimension::Duration, "time between submissions (absent: all at the start)")
          .at_least(0)
          .may_be_absent(),
  };
  return t;
}

std::vector<Task> read_task_trace(const std::string& file)
{
  const CsvTable table = read_csv_file(file);
  const size_t submit = table.column("submit_time"), flops = table.column("flops");
  const size_t input = table.column("input_bytes"), output = table.column("output_bytes");
  const bool has_id = std::find(table.header.begin(), table.header.end(), "id") != table.header.end();
  if (table.rows.size() > static_cast<size_t>(kMaxTasks))
    throw ConfigError(file + ":" + std::to_string(table.line_of_row[kMaxTasks]) + ": more than " +
                      std::to_string(kMaxTasks) + " tasks, llsim's limit (about 8 GB)");
  std::vector<Task> tasks;
  tasks.reserve(table.rows.size());
  for (size_t r = 0; r < table.rows.size(); ++r) {
    Task t;
    t.id             = has_id ? table.rows[r][table.column("id")] : std::to_string(r);
    t.submit_s       = table.number(r, submit);
    t.flops          = table.number(r, flops);
    t.input_B        = table.number(r, input);
    t.output_B       = table.number(r, output);
    const auto where = file + ":" + std::to_string(table.line_of_row[r]) + ": ";
    if (t.submit_s < 0 || t.input_B < 0 || t.output_B < 0)
      throw ConfigError(where + "submit_time, input_bytes and output_bytes must not be negative");
    if (!(t.flops > 0))
      throw ConfigError(where + "flops must be positive");
    tasks.push_back(std::move(t));
  }
  if (tasks.empty())
    throw ConfigError(file + ":2: the trace has no tasks");
  return tasks;
}

std::vector<Task> load_tasks(const Params& p, Rng& rng)
{
  std::vector<Task> tasks;
  if (p.has("trace")) {
    for (const char* key : {"count", "flops", "input", "output", "arrival"})
      if (p.has(key))
        p.fail(key, "give either 'trace' or the generator keys (count, flops, input, output, arrival), not both");
    const std::string file = p.path("trace");
    try {
      tasks = read_task_trace(file);
    } catch (const ConfigError& e) {
      p.fail("trace", e.what());
    }
  } else {
    for (const char* key : {"count", "flops"})
      if (!p.has(key))
        p.ref().fail(std::string("missing '") + key +
                     "': give a task generator {count, flops, input, output, arrival} "
                     "or a trace {trace: file.csv}");
    const int64_t count = p.integer("count");
    const auto flops    = p.distribution("flops");
    const auto input    = p.has("input") ? p.distribution("input") : nullptr;
    const auto output   = p.has("output") ? p.distribution("output") : nullptr;
    const auto arrival  = p.has("arrival") ? p.distribution("arrival") : nullptr;
    double clock        = 0;
    tasks.reserve(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
      Task t;
      t.id       = std::to_string(i);
      t.submit_s = clock;
      t.flops    = flops->sample(rng);
      t.input_B  = input ? input->sample(rng) : 0;
      t.output_B = output ? output->sample(rng) : 0;
      if (arrival)
        clock += arrival->sample(rng);
      tasks.push_back(std::move(t));
    }
  }
  // Generated tasks and most traces are in submission order already; sorting them would only move
  // every task a few dozen times.
  const auto by_submission = [](const Task& a, const Task& b) { return a.submit_s < b.submit_s; };
  if (!std::is_sorted(tasks.begin(), tasks.end(), by_submission))
    std::stable_sort(tasks.begin(), tasks.end(), by_submission);
  return tasks;
}

}  // namespace llsim
