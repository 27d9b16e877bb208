#include "sim/study/child_runs.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

namespace llsim {

namespace {

double seconds_now()
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

void ChildRuns::start(size_t job, const std::vector<std::string>& args, const std::string& stderr_path)
{
  std::vector<std::string> argv_text = {"llsim"};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  const int discard = open("/dev/null", O_WRONLY | O_CLOEXEC);
  const int errors  = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (discard < 0 || errors < 0) {
    const int err = errno;
    for (int fd : {discard, errors})
      if (fd >= 0)
        close(fd);
    throw std::runtime_error("cannot start llsim: " + stderr_path + ": " + std::strerror(err));
  }
  const pid_t parent = getpid();
  const pid_t pid    = fork();
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec. The death signal is asked for before
    // the program starts, so no kill of the parent can fall between its start and the request;
    // a parent that died before the request shows as a changed parent process.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(127);
    dup2(discard, 1);
    dup2(errors, 2);
    execv("/proc/self/exe", argv.data());
    static const char failed[] = "llsim: cannot start the child run (execv of /proc/self/exe failed)\n";
    (void)!write(2, failed, sizeof failed - 1);
    _exit(127);
  }
  const int err = errno;
  close(discard);
  close(errors);
  if (pid < 0)
    throw std::runtime_error(std::string("cannot start llsim: ") + std::strerror(err));
  running_.push_back({pid, job, seconds_now()});
}

ChildExit ChildRuns::wait_any()
{
  if (running_.empty())
    throw std::logic_error("no child to wait for");
  int status = 0;
  pid_t pid  = 0;
  do
    pid = waitpid(-1, &status, 0);
  while (pid < 0 && errno == EINTR);
  for (auto it = running_.begin(); it != running_.end(); ++it)
    if (it->pid == pid) {
      ChildExit e{it->job, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
                  seconds_now() - it->started_s};
      running_.erase(it);
      return e;
    }
  throw std::runtime_error("waitpid returned an unknown process");
}

}  // namespace llsim
