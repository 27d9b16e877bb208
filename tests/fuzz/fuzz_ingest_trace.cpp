// Fuzz target: the ingest trace reader (time_s,client,op,path[,bytes]), through the scenario
// loader, which reads it for a fixed platform of four client ranks. Loading succeeds or throws
// ConfigError.
#include "fuzz_input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

const std::string kScenario = R"(name: fuzz-ingest-trace
platform:
  groups:
    c: {count: 2, nic: {bandwidth: 1GBps}}
    m: {count: 2, nic: {bandwidth: 1GBps}}
  backbone: {bandwidth: 10GBps}
services:
  mds: {kind: metadata, servers: m}
phases:
  - {name: t, kind: ingest, clients: c, ranks: 2, metadata: mds, workload: {impl: trace, file: ingest.csv}}
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  llsim::fuzz::write_input("ingest.csv", data, size);
  // The scenario never changes: written once per process, not for every input.
  static const std::string file = llsim::fuzz::write_input(
      "ingest_scenario.yaml", reinterpret_cast<const uint8_t*>(kScenario.data()), kScenario.size());
  try {
    llsim::load_scenario(file, {});
  } catch (const llsim::ConfigError&) {
  }
  return 0;
}
