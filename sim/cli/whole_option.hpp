// A command-line option that takes a whole number (--seeds, --jobs).
#pragma once
#include <cstdint>
#include <string>

namespace llsim {

// `text` as a whole number from 1 to `most`; std::invalid_argument naming `option` otherwise.
int64_t whole_option(const std::string& option, const std::string& text, int64_t most);

}  // namespace llsim
