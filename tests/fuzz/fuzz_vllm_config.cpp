// Fuzz target: the reader of a serve phase's `vllm_config:` (sim/scenario/vllm_config.hpp), vLLM's
// engine arguments as `vllm serve --config` reads them. The input is the config file; the scenario
// around it is fixed (a vllm system on two A100s, the operators model). Loading either succeeds or
// throws ConfigError; anything else (a crash, another exception) is a bug.
#include "fuzz_input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/scenario/scenario.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {

const std::string kScenario = R"(name: fuzz-vllm-config
platform:
  groups:
    gpu: {count: 1, nic: {bandwidth: 25GBps}, gpu: {preset: a100-80gb-sxm, count: 2}}
  backbone: {bandwidth: 100GBps}
phases:
  - name: chat
    kind: serve
    vllm_config: vllm.yaml
    system: {impl: vllm, instances: gpu}
    iteration: {impl: operators}
    workload: {requests: 2, arrival: 1s, input_tokens: 100, output_tokens: 10}
    slo: {ttft: 5s, tbt: 100ms}
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  llsim::fuzz::write_input("vllm.yaml", data, size);
  const std::string scenario =
      llsim::fuzz::write_input("scenario.yaml", reinterpret_cast<const uint8_t*>(kScenario.data()), kScenario.size());
  try {
    llsim::load_scenario(scenario, {});
  } catch (const llsim::ConfigError&) {
  }
  return 0;
}
