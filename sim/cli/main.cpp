#include "sim/cli/commands.hpp"

#include <string>
#include <vector>

int main(int argc, char* argv[])
{
  return llsim::main_with_args(std::vector<std::string>(argv + 1, argv + argc));
}
