// FNV-1a: a hash of text that is the same on every run and platform (std::hash is not), for
// placement, random streams and fingerprints that must be reproducible.
#pragma once
#include <cstdint>
#include <string_view>

namespace llsim {

inline constexpr uint64_t kFnv1aBasis = 0xcbf29ce484222325ULL;

// Continues hash `h` over `text`; start from kFnv1aBasis.
inline uint64_t fnv1a(std::string_view text, uint64_t h = kFnv1aBasis)
{
  for (char ch : text) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace llsim
