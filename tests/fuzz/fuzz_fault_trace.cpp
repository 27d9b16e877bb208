// Fuzz target: the host fault trace reader (host,down_at,up_at), through the scenario loader,
// which reads it for a fixed four-host platform. Loading succeeds or throws ConfigError.
#include "fuzz_input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

const std::string kScenario = R"(name: fuzz-fault-trace
platform:
  groups:
    n: {count: 4, nic: {bandwidth: 1GBps}}
    s: {count: 1, nic: {bandwidth: 1GBps}, disks: {count: 1, read: 1GBps, write: 1GBps, capacity: 1TB}}
  backbone: {bandwidth: 10GBps}
faults:
  - {group: n, impl: trace, file: faults.csv}
services:
  pfs: {kind: storage, servers: s}
phases:
  - {name: t, kind: transfer, from: n, to: pfs, bytes: 1GB}
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  llsim::fuzz::write_input("faults.csv", data, size);
  // The scenario never changes: written once per process, not for every input.
  static const std::string file = llsim::fuzz::write_input(
      "fault_scenario.yaml", reinterpret_cast<const uint8_t*>(kScenario.data()), kScenario.size());
  try {
    llsim::load_scenario(file, {});
  } catch (const llsim::ConfigError&) {
  }
  return 0;
}
