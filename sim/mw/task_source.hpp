// The `tasks:` section of a master-worker phase: either a generator
//   tasks: {count: 20000, flops: <compute or distribution>, input: <size or distribution>,
//           output: <size or distribution>, arrival: <duration distribution of inter-arrival times>}
// (no arrival: every task is submitted at the phase start), or a trace
//   tasks: {trace: traces/tasks.csv}
// whose CSV has the header submit_time,flops,input_bytes,output_bytes[,id]: seconds from the phase
// start, flop, bytes, bytes, optional id. A malformed line is an error naming the file and line.
#pragma once
#include "sim/core/params.hpp"
#include "sim/core/random.hpp"
#include "sim/mw/task.hpp"

#include <vector>

namespace llsim {

const ParamTable& task_source_params();

// Tasks sorted by submit time (stable: ties keep their order). Generator values are drawn from
// `rng`; a trace path is relative to the scenario file.
std::vector<Task> load_tasks(const Params& tasks, Rng& rng);

// Reads a task trace (see above); ConfigError with file and line on malformed content.
std::vector<Task> read_task_trace(const std::string& file);

}  // namespace llsim
