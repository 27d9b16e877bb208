#include "sim/run/run_folder.hpp"

#include "sim/core/errors.hpp"
#include "sim/run/outputs.hpp"
#include "sim/sg/actors.hpp"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace llsim {

namespace fs = std::filesystem;

namespace {

// `.<name>.llsim-<what>-<pid>-XXXXXX` beside `out`, for mkdtemp: the pid tells whose it is.
std::string sibling_template(const fs::path& out, const char* what)
{
  return (out.parent_path() /
          ("." + out.filename().string() + ".llsim-" + what + "-" + std::to_string(getpid()) + "-XXXXXX"))
      .string();
}

// What killed runs into `out` left beside it: a folder of a process still running (another run
// into the same folder) is its own.
void remove_leftovers(const fs::path& out)
{
  const std::string prefix = "." + out.filename().string() + ".llsim-";
  std::error_code error;
  for (const fs::directory_entry& e : fs::directory_iterator(out.parent_path(), error)) {
    const std::string name = e.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0 ||
        (name.compare(prefix.size(), 4, "new-") != 0 && name.compare(prefix.size(), 4, "old-") != 0))
      continue;
    const long pid = std::atol(name.c_str() + prefix.size() + 4);
    if (pid <= 0 || (kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH))
      fs::remove_all(e.path(), error);
  }
}

// A new folder from `path_template`, with the permissions a folder made by mkdir would have (the
// umask's), not mkdtemp's private ones.
std::string made_folder(std::string path_template)
{
  if (mkdtemp(path_template.data()) == nullptr)
    throw SimulationError("cannot create '" + path_template + "': " + std::strerror(errno));
  const mode_t mask = umask(0);
  umask(mask);
  chmod(path_template.c_str(), 0777 & ~mask);
  return path_template;
}

}  // namespace

RunFolder::RunFolder(const std::string& out)
{
  check_output_dir(out);
  fs::path path = fs::absolute(out).lexically_normal();
  if (!path.has_filename())
    path = path.parent_path();
  std::error_code error;
  if (fs::is_symlink(path, error)) {  // the run goes where the link points; the link stays
    path = fs::canonical(path, error);
    if (error)
      throw ConfigError("--out " + out + ": a link to a missing folder (" + error.message() + ")");
  }
  // Publishing replaces the folder: never the one llsim runs in, or one that holds it.
  const fs::path here             = fs::current_path(error).lexically_normal();
  const auto [first_differ, rest] = std::mismatch(path.begin(), path.end(), here.begin(), here.end());
  if (first_differ == path.end() || path == path.root_path())
    throw ConfigError("--out " + out + ": '" + path.string() +
                      "' holds the working folder; name a folder of its own for the run");
  if (fs::is_directory(path, error) && !fs::is_empty(path, error) && !fs::exists(path / "summary.json", error))
    throw ConfigError("--out " + out + ": '" + path.string() +
                      "' holds files but no summary.json, so it is not a run of llsim's, which this run would "
                      "replace; choose another folder, or empty it");
  fs::create_directories(path.parent_path(), error);
  if (error)
    throw ConfigError("--out " + out + ": cannot create '" + path.parent_path().string() + "': " + error.message());
  out_ = path.string();
  remove_leftovers(path);
  staging_ = made_folder(sibling_template(path, "new"));
  on_failed_simulation([staging = staging_] {
    std::error_code ignored;
    fs::remove_all(staging, ignored);
  });
}

RunFolder::~RunFolder()
{
  on_failed_simulation({});
  if (!published_) {
    std::error_code error;
    fs::remove_all(staging_, error);
  }
}

void RunFolder::publish()
{
  std::error_code error;
  const bool previous = fs::exists(out_, error);
  if (!previous) {
    fs::rename(staging_, out_, error);
    if (error)
      throw SimulationError("cannot move the run into '" + out_ + "': " + error.message());
    published_ = true;
    return;
  }
  // Where the file system exchanges two folders in one step, nothing is ever missing.
  if (renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, out_.c_str(), RENAME_EXCHANGE) == 0) {
    published_ = true;
    fs::remove_all(staging_, error);  // now the previous run
    return;
  }
  const std::string aside = made_folder(sibling_template(out_, "old"));
  fs::rename(out_, fs::path(aside) / "run", error);
  if (!error)
    fs::rename(staging_, out_, error);
  if (error)
    throw SimulationError("cannot move the run into '" + out_ + "': " + error.message());
  published_ = true;
  fs::remove_all(aside, error);
}

}  // namespace llsim
