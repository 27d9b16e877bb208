#include "sim/cli/commands.hpp"
#include "sim/study/child_runs.hpp"

#include <string>
#include <vector>

int main(int argc, char* argv[])
{
  llsim::die_with_parent();
  return llsim::main_with_args(std::vector<std::string>(argv + 1, argv + argc));
}
