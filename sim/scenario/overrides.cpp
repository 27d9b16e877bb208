#include "sim/scenario/overrides.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/core/yaml_checks.hpp"

#include <cctype>
#include <utility>

namespace llsim {

namespace {

bool is_index(const std::string& s)
{
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

// The item of `list` named `segment` (or at that index), or -1.
long find_item(const YAML::Node& list, const std::string& segment, std::vector<std::string>& names)
{
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node name = list[i]["name"];
    if (name && name.IsScalar()) {
      names.push_back(name.Scalar());
      if (name.Scalar() == segment)
        return static_cast<long>(i);
    }
  }
  // At most 18 digits: no list is longer, and stoul would overflow on 20.
  if (is_index(segment) && segment.size() <= 18 && std::stoull(segment) < list.size())
    return static_cast<long>(std::stoull(segment));
  return -1;
}

// Gives `node` a mapping at key segments[i] (path `canonical`) for a --set to go through, where
// the scenario has none.
void add_mapping(YAML::Node& node, const std::vector<std::string>& segments, size_t i, const std::string& canonical,
                 const std::string& where, SourceInfo& source)
{
  // A list item can only be reached in a list the scenario has: creating a mapping here would
  // leave the loader to blame the file for a list it never had.
  if (is_index(segments[i + 1])) {
    const std::vector<std::string> typed(segments.begin(), segments.begin() + static_cast<long>(i) + 1);
    throw ConfigError(where + ": the scenario has no list '" + canonical + "' to take item " + segments[i + 1] +
                      " of; set the whole list instead, e.g. --set '" + join(typed, ".") + "=[...]'");
  }
  node[segments[i]] = YAML::Node(YAML::NodeType::Map);
  // An error at the mapping this --set made (a required key it lacks, a list expected there) is
  // the --set's, not the file's.
  source.overrides[canonical] = where;
}

}  // namespace

std::string as_option(const std::string& message, const std::string& argument, const std::string& option)
{
  const std::string as_set = "--set " + argument + ": ";
  if (message.rfind(as_set, 0) != 0)
    return message;
  return option + " " + argument + ": " + message.substr(as_set.size());
}

void apply_override(YAML::Node root, const std::string& argument, SourceInfo& source)
{
  const std::string where = "--set " + argument;
  const auto equals       = argument.find('=');
  if (equals == std::string::npos || equals == 0)
    throw ConfigError(where + ": expected PATH=VALUE, e.g. --set phases.stage.bytes=20GB");
  const std::vector<std::string> segments = split(argument.substr(0, equals), '.');
  YAML::Node value;
  try {
    value = YAML::Load(argument.substr(equals + 1));
  } catch (const YAML::ParserException& e) {
    throw ConfigError(where + ": the value is not valid YAML: " + e.msg);
  }
  check_yaml_document(value, [&where](const YAML::Mark&) { return where; });
  // A node the file uses through aliases is one node: changing it here would change it
  // everywhere. (Nodes an earlier --set put in place are not the file's: their
  // positions are in another document.)
  const auto set_earlier = [&source](const std::string& path) {
    for (const auto& [set_path, argument] : source.overrides)
      if (path_within(path, set_path))
        return true;
    return false;
  };
  const auto is_shared = [&](const YAML::Node& n, const std::string& path) {
    return n.IsDefined() && !n.Mark().is_null() && source.shared.count(n.Mark().pos) > 0 && !set_earlier(path);
  };
  const auto refuse_if_shared = [&](const YAML::Node& n, const std::string& path) {
    if (is_shared(n, path))
      throw ConfigError(where + ": '" + (path.empty() ? std::string("(top level)") : path) + "' (" + source.file + ":" +
                        std::to_string(n.Mark().line + 1) +
                        ") is used through YAML aliases; --set would change every "
                        "use: write it out where you change it");
  };

  YAML::Node node = root;
  std::string canonical;
  for (size_t i = 0; i < segments.size(); ++i) {
    const std::string& segment = segments[i];
    if (segment.empty())
      throw ConfigError(where + ": empty path segment");
    const bool last = i + 1 == segments.size();
    refuse_if_shared(node, canonical);
    if (node.IsSequence()) {
      std::vector<std::string> names;
      const long index = find_item(node, segment, names);
      if (index < 0)
        throw ConfigError(where + ": '" + canonical + "' has no item named '" + segment + "'" +
                          (names.empty() ? "" : " (" + join(names, ", ") + ")"));
      canonical += "[" + std::to_string(index) + "]";
      if (last) {
        refuse_if_shared(std::as_const(node)[static_cast<size_t>(index)], canonical);  // assigning rebinds it
        node[static_cast<size_t>(index)] = value;
      } else
        node.reset(node[static_cast<size_t>(index)]);
      continue;
    }
    if (!node.IsMap() && !node.IsNull())
      throw ConfigError(where + ": '" + canonical + "' is a single value, it has no key '" + segment + "'");
    canonical += (canonical.empty() ? "" : ".") + segment;
    if (last) {
      // Assigning to an existing node changes the node itself: one that aliases share is
      // unbound first, so that the key gets a node of its own.
      if (is_shared(std::as_const(node)[segment], canonical))
        node.remove(segment);
      node[segment] = value;
    } else {
      YAML::Node next = node[segment];
      if (!next.IsDefined() || next.IsNull())
        add_mapping(node, segments, i, canonical, where, source);
      node.reset(node[segment]);
    }
  }
  source.overrides[canonical] = where;
}

}  // namespace llsim
