// Paths of a metadata namespace: absolute, '/'-separated, no trailing '/' ("/" is the root).
#pragma once
#include "sim/core/stable_hash.hpp"

#include <cstdint>
#include <string_view>

namespace llsim {

// "/a/b/c" -> "/a/b"; "/a" -> "/"; "/" -> "/".
inline std::string_view parent_dir(std::string_view path)
{
  const size_t slash = path.rfind('/');
  if (slash == std::string_view::npos || slash == 0)
    return "/";
  return path.substr(0, slash);
}

// Components below the root: "/" -> 0, "/a/b" -> 2.
inline size_t path_depth(std::string_view path)
{
  size_t n = 0;
  for (char ch : path)
    n += ch == '/' ? 1 : 0;
  return path == "/" ? 0 : n;
}

// The first `depth` components: ("/a/b/c", 2) -> "/a/b"; a shallower path is returned whole.
inline std::string_view path_prefix(std::string_view path, size_t depth)
{
  size_t seen = 0;
  for (size_t i = 1; i < path.size(); ++i)
    if (path[i] == '/' && ++seen == depth)
      return path.substr(0, i);
  return path;
}

// Placement must not depend on std::hash: stable across runs and platforms.
constexpr uint64_t kPathHashSeed = kFnv1aBasis;
inline uint64_t path_hash_more(uint64_t h, std::string_view text)
{
  return fnv1a(text, h);
}
inline uint64_t path_hash(std::string_view path)
{
  return fnv1a(path);
}

}  // namespace llsim
