#include "sim/study/child_runs.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

extern char** environ;

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
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  // The child's environment, and the parent it dies with (die_with_parent()).
  const std::string named           = std::string(kParentPidVariable) + "=";
  std::vector<std::string> env_text = {named + std::to_string(getpid())};
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, named.c_str(), named.size()) != 0)
      env_text.emplace_back(*e);
  std::vector<char*> envp;
  for (auto& e : env_text)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid     = 0;
  const int err = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0)
    throw std::runtime_error(std::string("cannot start llsim: ") + std::strerror(err));
  running_.push_back({pid, job, seconds_now()});
}

void die_with_parent()
{
  const char* named = std::getenv(kParentPidVariable);
  if (named == nullptr)
    return;
  const std::string parent = named;
  unsetenv(kParentPidVariable);
  // Not our parent's number (exported by hand, or carried into another job): nothing to follow.
  if (parent != std::to_string(getppid()))
    return;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (parent != std::to_string(getppid()))  // it died before the line above
    _exit(1);
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
