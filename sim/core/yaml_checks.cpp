#include "sim/core/yaml_checks.hpp"

#include "sim/core/errors.hpp"

#include <map>

namespace llsim {

namespace {

class DocumentCheck {
 public:
  explicit DocumentCheck(const std::function<std::string(const YAML::Mark&)>& where) : where_(where) {}

  void visit(const YAML::Node& node, size_t depth)
  {
    if (++visited_ > kMaxYamlNodes)
      fail(node, "the document expands to more than " + std::to_string(kMaxYamlNodes) +
                     " YAML nodes (aliases of aliases?); write it out or make it smaller");
    if (depth > kMaxYamlDepth)
      fail(node, "YAML nested deeper than " + std::to_string(kMaxYamlDepth) + " levels (an alias that refers to itself?)");
    const YAML::Mark mark = node.Mark();
    if (!mark.is_null() && !seen_.insert(mark.pos).second)
      shape_.shared.insert(mark.pos);
    if (!node.IsMap() && !node.IsSequence())
      return;
    if (node.IsSequence()) {
      for (const auto& item : node)
        visit(item, depth + 1);
      return;
    }
    std::map<std::string, YAML::Mark> keys;
    for (const auto& entry : node) {
      const YAML::Node& key = entry.first;
      if (key.IsScalar()) {
        if (key.Scalar() == "<<")
          fail(key, "merge keys (<<) are not supported (yaml-cpp 0.7 reads them as an ordinary key): write the "
                    "keys out, or reuse a whole mapping with an alias (*name)");
        const auto [first, fresh] = keys.emplace(key.Scalar(), key.Mark());
        if (!fresh)
          fail(key, "duplicate key '" + key.Scalar() + "' (first at " + where_(first->second) +
                        "): a key may appear once in a mapping");
      } else {
        fail(key, "expected a plain key, got a " + std::string(key.IsMap() ? "mapping" : "sequence"));
      }
      visit(entry.second, depth + 1);
    }
  }

  YamlShape shape() const { return shape_; }

 private:
  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const
  {
    throw ConfigError(where_(node.Mark()) + ": " + message);
  }

  const std::function<std::string(const YAML::Mark&)>& where_;
  size_t visited_ = 0;
  std::set<int> seen_;
  YamlShape shape_;
};

}  // namespace

YamlShape check_yaml_document(const YAML::Node& root, const std::function<std::string(const YAML::Mark&)>& where)
{
  DocumentCheck check(where);
  check.visit(root, 0);
  return check.shape();
}

}  // namespace llsim
