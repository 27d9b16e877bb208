#include "sim/cli/plot_runner.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace llsim {

namespace {

std::string python_interpreter()
{
  if (const char* chosen = std::getenv("LLSIM_PYTHON"))
    return chosen;
  if (std::filesystem::exists("/usr/bin/python3"))
    return "/usr/bin/python3";
  return "python3";
}

// An installed llsim (PREFIX/bin/llsim) uses PREFIX/share/llsim/analysis/<name>; one in its
// build tree, the source tree's.
std::string analysis_script(const std::string& name)
{
  const std::filesystem::path prefix    = std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path();
  const std::filesystem::path installed = prefix / LLSIM_INSTALLED_DATA_DIR / "analysis" / name;
  if (std::filesystem::exists(installed))
    return installed.string();
  const std::string source = std::string(LLSIM_SOURCE_DIR) + "/analysis/" + name;
  if (!std::filesystem::exists(source))
    throw SimulationError("cannot plot: neither " + installed.string() + " nor " + source + " exists");
  return source;
}

}  // namespace

void run_plot_script(const std::string& run_dir, const std::string& script_name)
{
  const std::string script = analysis_script(script_name);
  const std::string command =
      shell_quote(python_interpreter()) + " " + shell_quote(script) + " " + shell_quote(run_dir);
  // The script writes to the same stdout: what llsim printed goes out first, even into a file.
  std::cout.flush();
  std::fflush(stdout);
  if (std::system(command.c_str()) != 0)
    throw SimulationError("plotting failed (" + command + "); the results themselves are written in " + run_dir);
}

}  // namespace llsim
