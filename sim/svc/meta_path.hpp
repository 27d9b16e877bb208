// Paths of a metadata namespace: absolute, '/'-separated, no trailing '/' ("/" is the root).
#pragma once
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

// FNV-1a: stable across runs and platforms (placement must not depend on std::hash).
constexpr uint64_t kPathHashSeed = 0xcbf29ce484222325ULL;
inline uint64_t path_hash_more(uint64_t h, std::string_view text)
{
  for (char ch : text) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ULL;
  }
  return h;
}
inline uint64_t path_hash(std::string_view path)
{
  return path_hash_more(kPathHashSeed, path);
}

}  // namespace llsim
