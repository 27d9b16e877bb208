// A serve phase's `vllm_config: FILE`: vLLM's engine arguments as `vllm serve --config FILE`
// reads them (a YAML mapping of argument names without their dashes, `max-num-seqs: 128`; an
// underscore spelling, `max_num_seqs`, is the same argument). Each argument llsim models becomes
// the phase key that models it (max-num-seqs -> batching.max_batch_size, tensor-parallel-size ->
// system.tp, ...: docs/phases/serve.md, "vLLM's own configuration"), written into the scenario
// before it is read, so every later error about it names the config file's line. An argument llsim
// does not model is an error that names it; a key the scenario file already gives is an error (give
// it in one place); a --set of the same key wins, as vLLM's command line wins over its --config.
#pragma once
#include "sim/core/yaml_ref.hpp"

namespace llsim {

// Imports the `vllm_config` of every serve phase under root["phases"] into the phase and removes
// the key (resolved.yaml then holds the values in force). Records each imported key in
// source.overrides, at the config file's line. ConfigError at the file and line of a bad argument.
void import_vllm_configs(YAML::Node root, SourceInfo& source);

}  // namespace llsim
