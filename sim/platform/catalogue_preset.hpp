// An entry of a hardware catalogue (the GPUs of gpu_presets.cpp, the drives of
// disk_presets.cpp), and how a scenario's section takes one: `preset: NAME` fills the keys the
// section does not give with the entry's figures, written into the section so that
// resolved.yaml shows what was run.
#pragma once
#include "sim/core/params.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace llsim {

struct CataloguePreset {
  std::string name;
  std::string description;
  std::vector<std::pair<std::string, std::string>> figures;  // key -> value, as a scenario writes it
};

// Fills the section `p` from the entry of `presets` its `preset` key names (`what` names the
// catalogue in the error when none does). `replaced(key)`: a figure the section's own keys
// replace though it does not give that key itself.
void apply_preset(const Params& p, const std::vector<CataloguePreset>& presets, const std::string& what,
                  const std::function<bool(const std::string&)>& replaced = nullptr);

}  // namespace llsim
