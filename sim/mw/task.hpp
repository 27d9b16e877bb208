// Tasks of a master-worker application and what happened to each.
#pragma once
#include <cstddef>
#include <string>

namespace llsim {

struct Task {
  std::string id;
  double submit_s = 0;
  double flops    = 0;
  double input_B  = 0;
  double output_B = 0;
};

struct TaskRecord {
  double start_s = -1;  // first time a worker began it
  double end_s   = -1;  // when its output reached the master; -1 if never
  long worker    = -1;  // the worker that completed it
  int attempts   = 0;   // times it was started (restarts after failures included)
};

}  // namespace llsim
