// `llsim models`: every interface (its header and folder), its implementations (their files), each
// parameter with type, unit, default, range and description, each phase and service kind's
// metrics, the presets, distributions and units, generated from the same declarations that check
// scenarios. As text, or as Markdown (`--markdown`: docs/models.md is its output).
#pragma once
#include <string>

namespace llsim {

std::string models_listing(bool markdown);

}  // namespace llsim
