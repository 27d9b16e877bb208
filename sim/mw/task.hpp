// Tasks of a master-worker application and what happened to each.
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace llsim {

// One copy of a part of a task's input: the host whose disks hold it and its file, on the
// runtime's data service or on the workers' own disks (scratch).
struct TaskInput {
  HostId host;
  size_t file;
};

// A part of a task's input: `bytes` read from one of its copies.
struct TaskInputPart {
  std::vector<TaskInput> copies;
  double bytes = 0;
  bool scratch = false;  // on the workers' own disks (an earlier task's output), not the data service
};

// Where a task's output goes: to the master over the network, onto the worker's own disks (the
// runtime's scratch service; a later task reads it there), or into the data service.
enum class TaskOutput { Master, LocalDisk, Storage };

struct Task {
  std::string id;
  double submit_s = 0;
  double flops    = 0;
  double input_B  = 0;
  double output_B = 0;
  // Empty: the master sends input_B. Otherwise the worker reads every part, one after another,
  // each from one copy: its own when it holds one (unless prefer_remote and another host holds
  // one too), else another host's.
  std::vector<TaskInputPart> inputs;
  bool prefer_remote = false;
  bool near_input    = true;  // schedulers see where its first input part lies (false: anywhere)
  TaskOutput output  = TaskOutput::Master;
  int output_copies  = 1;  // TaskOutput::Storage: the first on the worker when it is a server
  double spill_B     = 0;  // bytes the task writes to and reads back from the worker's disks
};

struct TaskRecord {
  double start_s     = -1;  // first time a worker began it
  double end_s       = -1;  // when its output reached the master; -1 if never
  long worker        = -1;  // the worker that completed it
  int attempts       = 0;   // times it was started (restarts after failures included)
  size_t output_file = 0;   // TaskOutput::LocalDisk or Storage: the file it wrote
};

}  // namespace llsim
