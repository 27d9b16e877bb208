#include "sim/cli/whole_option.hpp"

#include <stdexcept>

namespace llsim {

int64_t whole_option(const std::string& option, const std::string& text, int64_t most)
{
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || v < 1 || v > most)
    throw std::invalid_argument(option + " expects a whole number from 1 to " + std::to_string(most) + ", got '" +
                                text + "'");
  return v;
}

}  // namespace llsim
