// Fuzz target: the tasks trace reader (submit_time,flops,input_bytes,output_bytes[,id]). It
// returns tasks or throws ConfigError.
#include "fuzz_input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/mw/task_source.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  try {
    llsim::read_task_trace(llsim::fuzz::write_input("tasks.csv", data, size));
  } catch (const llsim::ConfigError&) {
  }
  return 0;
}
