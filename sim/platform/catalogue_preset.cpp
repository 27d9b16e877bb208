#include "sim/platform/catalogue_preset.hpp"

#include "sim/core/text.hpp"

namespace llsim {

void apply_preset(const Params& p, const std::vector<CataloguePreset>& presets, const std::string& what,
                  const std::function<bool(const std::string&)>& replaced)
{
  const std::string name = p.text("preset");
  std::vector<std::string> names;
  for (const CataloguePreset& preset : presets) {
    if (preset.name != name) {
      names.push_back(preset.name);
      continue;
    }
    YAML::Node node = p.ref().node();
    for (const auto& [key, value] : preset.figures)
      if (!p.has(key) && !(replaced && replaced(key)))
        node[key] = without_marks(YAML::Load(value));
    return;
  }
  p.fail("preset", unknown_word(what, name, names));
}

}  // namespace llsim
