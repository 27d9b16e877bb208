// `llsim models`: every interface, its implementations, and each parameter with type, unit,
// default and description, generated from the same declarations that check scenarios.
#pragma once
#include <string>

namespace llsim {

std::string models_listing();

}  // namespace llsim
