// The Slurm options `llsim sweep` and `llsim plan` share: --slurm, --partition, --time.
#pragma once
#include "sim/study/slurm_jobs.hpp"

#include <string>

namespace CLI {
class App;
}

namespace llsim {

// `what`: the help text of --slurm.
void add_slurm_options(CLI::App& command, bool& slurm, SlurmOptions& options, const std::string& what);

}  // namespace llsim
