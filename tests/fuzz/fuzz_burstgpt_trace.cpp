// Fuzz target: the burstgpt request trace reader, strict and with skip_bad_lines. It returns requests
// or throws ConfigError.
#include "fuzz_input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/serve/workload/request_trace.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string file = llsim::fuzz::write_input("trace.csv", data, size);
  for (bool skip : {false, true}) {
    try {
      llsim::read_request_trace(file, llsim::TraceFormat::BurstGpt, skip);
    } catch (const llsim::ConfigError&) {
    }
  }
  return 0;
}
