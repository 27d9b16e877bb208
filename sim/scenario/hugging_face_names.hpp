// The catalogue preset a Hugging Face model name serves (vLLM's `model` argument): the name's
// last path component (a local directory named after the release counts too) in lower case, less
// the suffixes of its chat, instruct, code and point releases, which share the base model's shape.
#pragma once
#include <string>

namespace llsim {

// The preset's name, or "" when the catalogue has no such model.
std::string preset_of_hugging_face_name(const std::string& name);

}  // namespace llsim
