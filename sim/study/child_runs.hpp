// Runs of this executable as child processes, several at a time (a SimGrid simulation owns its
// process, so a sweep runs each point as `llsim run` of its own). Linux only (/proc/self/exe).
#pragma once
#include <string>
#include <vector>

namespace llsim {

struct ChildExit {
  size_t job    = 0;  // as given to start()
  int status    = 0;  // exit status; 128 + signal number when killed by a signal
  double wall_s = 0;
};

class ChildRuns {
 public:
  // Starts `llsim ARGS...` with standard output discarded and standard error to `stderr_path`.
  // The child is killed when this process dies (a sweep or plan killed with SIGKILL leaves no
  // run going on behind it to race the resumed one). Throws std::runtime_error when the process
  // cannot be started.
  void start(size_t job, const std::vector<std::string>& args, const std::string& stderr_path);
  // Waits for one started child to end.
  ChildExit wait_any();
  size_t running() const { return running_.size(); }

 private:
  struct Running {
    int pid;
    size_t job;
    double started_s;
  };
  std::vector<Running> running_;
};

}  // namespace llsim
