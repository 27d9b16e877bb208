// Fuzz target: the scenario loader with --set overrides. The input's leading lines that start
// with "--set " are overrides; the rest is the scenario file. Loading either succeeds or throws
// ConfigError; anything else (a crash, another exception) is a bug.
#include "fuzz_input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string input(reinterpret_cast<const char*>(data), size);
  llsim::LoadOptions options;
  size_t at = 0;
  while (input.compare(at, 6, "--set ") == 0) {
    const size_t end = input.find('\n', at);
    options.overrides.push_back(input.substr(at + 6, end == std::string::npos ? std::string::npos : end - at - 6));
    at = end == std::string::npos ? input.size() : end + 1;
  }
  const std::string file = llsim::fuzz::write_input("scenario.yaml", data + at, size - at);
  try {
    llsim::load_scenario(file, options);
  } catch (const llsim::ConfigError&) {
  }
  return 0;
}
