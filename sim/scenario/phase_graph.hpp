// The phases' `after:` relation as a Boost.Graph DAG.
#pragma once
#include "sim/core/yaml_ref.hpp"
#include "sim/scenario/scenario.hpp"

#include <vector>

namespace llsim {

// ConfigError at the `after:` of a phase on a cycle, naming the whole cycle; `after_refs[i]` is
// the `after` entry of phases[i] in the scenario.
void check_acyclic(const std::vector<PhaseEntry>& phases, const std::vector<YamlRef>& after_refs);

// ConfigError at a phase's claim of a host group (GroupClaim) that another phase also claims,
// unless one of the two waits for the other through `after` (directly or not). Phases ordered
// only by `start:` times are refused too: when the first ends is not known before the run.
void check_group_claims(const std::vector<PhaseEntry>& phases);

}  // namespace llsim
