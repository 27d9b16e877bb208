#include "sim/cli/slurm_options.hpp"

#include <CLI/CLI.hpp>

namespace llsim {

void add_slurm_options(CLI::App& command, bool& slurm, SlurmOptions& options, const std::string& what)
{
  command.add_flag("--slurm", slurm, what);
  command.add_option("--partition", options.partition, "the Slurm partition (default: the cluster's)")->type_name("P");
  command.add_option("--time", options.time, "the Slurm time limit of each run (MINUTES, H:M:S or D-H:M:S)")
      ->type_name("T");
}

}  // namespace llsim
