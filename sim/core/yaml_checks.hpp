// Rules yaml-cpp 0.7 leaves unchecked, applied to every document llsim reads (a scenario file,
// a --set value): a key appears once in a mapping; no merge keys (`<<`, which yaml-cpp reads as
// an ordinary key); a bounded size and depth (aliases can make a few lines expand to billions of
// nodes, or refer to themselves). Anchors and aliases otherwise work.
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <functional>
#include <set>
#include <string>

namespace llsim {

inline constexpr size_t kMaxYamlNodes = 1000000;  // nodes visited, aliases expanded
inline constexpr size_t kMaxYamlDepth = 64;

struct YamlShape {
  // Positions (Mark::pos) of the nodes reached more than once: the targets of aliases, which a
  // --set must not change through one of their uses.
  std::set<int> shared;
};

// Throws ConfigError at the first broken rule; `where(mark)` says where a node is
// ("file:line:col" or "--set ...").
YamlShape check_yaml_document(const YAML::Node& root, const std::function<std::string(const YAML::Mark&)>& where);

}  // namespace llsim
