#include "sim/cli/plot_runner.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"

#include <cstdlib>
#include <filesystem>

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

}  // namespace

void run_plot_script(const std::string& run_dir)
{
  const std::string script = std::string(LLSIM_SOURCE_DIR) + "/analysis/plot.py";
  if (!std::filesystem::exists(script))
    throw SimulationError("cannot plot: " + script + " not found");
  const std::string command = shell_quote(python_interpreter()) + " " + shell_quote(script) + " " + shell_quote(run_dir);
  if (std::system(command.c_str()) != 0)
    throw SimulationError("plotting failed (" + command + "); the results themselves are written in " + run_dir);
}

}  // namespace llsim
