// Fuzz target: the readers of DLIO workload files, the training one (sim/loads/dlio_config.hpp)
// as a dlio phase's `config:` reads it and the checkpoint one (sim/train/dlio_checkpoint_config.hpp)
// as a dlio_checkpoint phase's does. Each returns a workload or throws ConfigError.
#include "fuzz_input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/loads/dlio_config.hpp"
#include "sim/train/dlio_checkpoint_config.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string file = llsim::fuzz::write_input("dlio.yaml", data, size);
  try {
    llsim::read_dlio_config(file);
  } catch (const llsim::ConfigError&) {
  }
  try {
    llsim::read_dlio_checkpoint_config(file);
  } catch (const llsim::ConfigError&) {
  }
  return 0;
}
