// Fuzz target: the reader of DLIO workload files (sim/loads/dlio_config.hpp), as a dlio phase's
// `config:` reads them. It returns a workload or throws ConfigError.
#include "fuzz_input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/loads/dlio_config.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  try {
    llsim::read_dlio_config(llsim::fuzz::write_input("dlio.yaml", data, size));
  } catch (const llsim::ConfigError&) {
  }
  return 0;
}
