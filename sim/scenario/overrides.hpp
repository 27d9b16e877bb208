// `--set PATH=VALUE`: PATH is a dotted path into the scenario; items of a list are addressed by
// their `name:` (phases.stage.bytes) or by index (phases.0.bytes). VALUE is parsed as YAML, as if
// it had been written in the file. Missing mapping keys are created.
#pragma once
#include "sim/core/yaml_ref.hpp"

#include <string>

namespace llsim {

// Applies one override to `root` and records it in `source` so errors about it point at it.
void apply_override(YAML::Node root, const std::string& argument, SourceInfo& source);

// The message of an error about an override that another option gave (a sweep's --grid, a plan's
// --axis), told as that option's: "--set P=V: why" becomes "<option> P=V: why". Other messages
// unchanged.
std::string as_option(const std::string& message, const std::string& argument, const std::string& option);

}  // namespace llsim
