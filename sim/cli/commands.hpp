// The llsim command line (CLI11): `llsim run|validate|sweep|models|trace stats|calibrate`, `--help`
// (also per command), `--version`.
// Exit status: 0 success, 2 usage or configuration error, 1 failure during simulation.
#pragma once
#include <string>
#include <vector>

namespace llsim {

int main_with_args(const std::vector<std::string>& args);

}  // namespace llsim
