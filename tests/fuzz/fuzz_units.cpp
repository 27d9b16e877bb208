// Fuzz target: the quantity parser, in every dimension. A value it returns is never NaN; a text
// it refuses is refused with std::invalid_argument.
#include "sim/core/units.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (auto d :
       {llsim::Dimension::Size, llsim::Dimension::Bandwidth, llsim::Dimension::Duration, llsim::Dimension::Rate,
        llsim::Dimension::Compute, llsim::Dimension::Count, llsim::Dimension::Number}) {
    try {
      if (std::isnan(llsim::parse_quantity(text, d)))
        __builtin_trap();
    } catch (const std::invalid_argument&) {
    }
  }
  return 0;
}
