// A host named as in the platform (group-index, e.g. compute-3), read from a fault trace or a
// node mapping.
#pragma once
#include "sim/platform/platform_spec.hpp"

#include <optional>
#include <string>

namespace llsim {

// The host's index in `group`, or nothing when `name` is not one of the group's hosts.
inline std::optional<size_t> host_index_in(const GroupSpec& group, const std::string& name)
{
  const std::string prefix = group.name + "-";
  if (name.compare(0, prefix.size(), prefix) != 0 || name.size() <= prefix.size())
    return std::nullopt;
  const std::string digits = name.substr(prefix.size());
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() >= 10)
    return std::nullopt;
  const size_t index = std::stoul(digits);
  if (index >= static_cast<size_t>(group.count))
    return std::nullopt;
  return index;
}

// "compute-0 .. compute-63", for error messages.
inline std::string host_range_of(const GroupSpec& group)
{
  return group.name + "-0 .. " + group.name + "-" + std::to_string(group.count - 1);
}

}  // namespace llsim
