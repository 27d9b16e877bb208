// A YAML node together with where it came from (file, line, column, or a --set override) and
// its path in the scenario ("phases[2].checkpoint.bandwidth"), so every error can say where.
#pragma once
#include <yaml-cpp/yaml.h>

#include <map>
#include <memory>
#include <set>
#include <string>

namespace llsim {

// True when `path` is `prefix` or lies inside it ("a.b[2].c" is inside "a.b").
bool path_within(const std::string& path, const std::string& prefix);

struct SourceInfo {
  std::string file;
  // Canonical path of an overridden node -> the "--set ..." argument that put it there.
  std::map<std::string, std::string> overrides;
  // Where the file's aliased nodes are (yaml_checks.hpp): a --set through one of them would
  // change every use.
  std::set<int> shared;
};

class YamlRef {
 public:
  YamlRef(YAML::Node node, std::string path, std::shared_ptr<const SourceInfo> source);

  const YAML::Node& node() const { return node_; }
  YAML::Node& node() { return node_; }
  const std::string& path() const { return path_; }
  const std::shared_ptr<const SourceInfo>& source() const { return source_; }

  YamlRef child(const std::string& key) const;
  YamlRef item(size_t index) const;

  // "file:line:col" or "--set a.b=c"; a value llsim filled in (a default, which has no place in
  // the file) is located at the nearest node around it that the file has.
  std::string location() const;
  [[noreturn]] void fail(const std::string& message) const;
  // "file:line:col: path.to.key", as an error about `key` of this mapping begins (this mapping's
  // place when the key is not written).
  std::string place_of(const std::string& key) const;

 private:
  YamlRef(YAML::Node node, std::string path, std::shared_ptr<const SourceInfo> source, YAML::Mark around);
  YAML::Mark mark() const;  // the node's place in the file, else the nearest enclosing one's

  YAML::Node node_;
  std::string path_;
  std::shared_ptr<const SourceInfo> source_;
  YAML::Mark around_ = YAML::Mark::null_mark();  // the nearest enclosing node's place in the file
};

// A copy of `node` that has no place in any file (for defaults parsed from llsim's own text,
// whose marks would point at the first line of the scenario).
YAML::Node without_marks(const YAML::Node& node);

// Parses a YAML file whose top level must be a mapping (of `expected`, for the error) and checks it
// (yaml_checks.hpp); syntax errors become ConfigErrors with the file's line and column. Records its
// aliased nodes in `source.shared`.
YAML::Node parse_yaml_file(const std::string& file, SourceInfo& source,
                           const std::string& expected = "keys (name, seed, platform, phases)");

// A scalar's text, or a located error if the node is not a scalar.
std::string scalar_text(const YamlRef& ref, const char* expected);

}  // namespace llsim
