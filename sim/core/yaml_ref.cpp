#include "sim/core/yaml_ref.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/yaml_checks.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace llsim {

YamlRef::YamlRef(YAML::Node node, std::string path, std::shared_ptr<const SourceInfo> source)
    : node_(std::move(node))
    , path_(std::move(path))
    , source_(std::move(source))
{}

YamlRef::YamlRef(YAML::Node node, std::string path, std::shared_ptr<const SourceInfo> source, YAML::Mark around)
    : node_(std::move(node))
    , path_(std::move(path))
    , source_(std::move(source))
    , around_(around)
{}

YAML::Mark YamlRef::mark() const
{
  return node_.IsDefined() && !node_.Mark().is_null() ? node_.Mark() : around_;
}

YamlRef YamlRef::child(const std::string& key) const
{
  const YAML::Node& const_node = node_;  // const access never inserts into the mapping
  return YamlRef(const_node[key], path_.empty() ? key : path_ + "." + key, source_, mark());
}

YamlRef YamlRef::item(size_t index) const
{
  const YAML::Node& const_node = node_;
  return YamlRef(const_node[index], path_ + "[" + std::to_string(index) + "]", source_, mark());
}

YAML::Node without_marks(const YAML::Node& node)
{
  switch (node.Type()) {
  case YAML::NodeType::Scalar: {
    YAML::Node copy(node.Scalar());
    copy.SetTag(node.Tag());
    return copy;
  }
  case YAML::NodeType::Sequence: {
    YAML::Node copy(YAML::NodeType::Sequence);
    for (const auto& item : node)
      copy.push_back(without_marks(item));
    copy.SetStyle(node.Style());  // resolved.yaml writes it as it was written
    return copy;
  }
  case YAML::NodeType::Map: {
    YAML::Node copy(YAML::NodeType::Map);
    for (const auto& entry : node)
      copy[entry.first.Scalar()] = without_marks(entry.second);
    copy.SetStyle(node.Style());
    return copy;
  }
  default:
    return YAML::Node(node.Type());
  }
}

bool path_within(const std::string& path, const std::string& prefix)
{
  return path.compare(0, prefix.size(), prefix) == 0 &&
         (path.size() == prefix.size() || path[prefix.size()] == '.' || path[prefix.size()] == '[');
}

std::string YamlRef::location() const
{
  // The override nearest the node: a key set inside a mapping another override made is its own.
  const std::string* nearest = nullptr;
  size_t nearest_length      = 0;
  for (const auto& [path, argument] : source_->overrides)
    if (path_within(path_, path) && (nearest == nullptr || path.size() > nearest_length)) {
      nearest        = &argument;
      nearest_length = path.size();
    }
  if (nearest != nullptr)
    return *nearest;
  const YAML::Mark at = mark();
  if (!at.is_null())
    return source_->file + ":" + std::to_string(at.line + 1) + ":" + std::to_string(at.column + 1);
  return source_->file;
}

void YamlRef::fail(const std::string& message) const
{
  throw ConfigError(location() + ": " + (path_.empty() ? std::string("(top level)") : path_) + ": " + message);
}

std::string YamlRef::place_of(const std::string& key) const
{
  const YamlRef at        = child(key);
  const bool written      = at.node().IsDefined();
  const YamlRef& of       = written ? at : *this;
  const std::string place = of.location() + ": " + (of.path().empty() ? std::string("(top level)") : of.path());
  return written ? place : place + ": " + key;
}

YAML::Node parse_yaml_file(const std::string& file, SourceInfo& source, const std::string& expected)
{
  std::error_code error;
  if (!std::filesystem::exists(file, error))
    throw ConfigError(file + ": no such file");
  if (!std::filesystem::is_regular_file(file, error))
    throw ConfigError(file + ": not a regular file (expected a YAML mapping of " + expected + ")");
  std::ifstream in(file);
  if (!in)
    throw ConfigError(file + ": cannot open the file (does it exist and is it readable?)");
  std::stringstream text;
  text << in.rdbuf();
  try {
    YAML::Node root = YAML::Load(text.str());
    if (!root.IsMap()) {
      const YAML::Mark mark = root.Mark();
      const int line = mark.is_null() ? 1 : mark.line + 1, column = mark.is_null() ? 1 : mark.column + 1;
      throw ConfigError(file + ":" + std::to_string(line) + ":" + std::to_string(column) +
                        ": (top level): expected a mapping of " + expected);
    }
    source.shared = check_yaml_document(root, [&file](const YAML::Mark& m) {
                      return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
                    }).shared;
    return root;
  } catch (const YAML::ParserException& e) {
    throw ConfigError(file + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                      ": YAML syntax error: " + e.msg);
  }
}

std::string scalar_text(const YamlRef& ref, const char* expected)
{
  if (!ref.node().IsScalar())
    ref.fail(std::string("expected ") + expected);
  return ref.node().Scalar();
}

}  // namespace llsim
