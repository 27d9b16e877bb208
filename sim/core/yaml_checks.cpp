#include "sim/core/yaml_checks.hpp"

#include "sim/core/errors.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace llsim {

namespace {

// The size of a subtree once its aliases are expanded.
struct Extent {
  size_t nodes  = 1;
  size_t height = 0;  // levels below the node

  void add_child(const Extent& child)
  {
    nodes += child.nodes;
    height = std::max(height, child.height + 1);
  }
};

// A node whose subtree is checked, with what the check found.
struct CheckedNode {
  YAML::Node node;
  Extent extent;
  bool subtree_shared = false;  // every node under it is in YamlShape::shared
};

class DocumentCheck {
 public:
  explicit DocumentCheck(const std::function<std::string(const YAML::Mark&)>& where)
      : where_(where)
  {}

  // Checks the node's subtree once; the same node reached again through an alias counts its whole
  // expansion towards the limits without being walked again, so that a document near the node
  // limit costs its distinct nodes, not its expanded ones.
  Extent visit(const YAML::Node& node, size_t depth)
  {
    const YAML::Mark mark = node.Mark();
    if (!mark.is_null() && !seen_.insert(mark.pos).second)
      shape_.shared.insert(mark.pos);
    if (const CheckedNode* done = checked(node)) {
      const Extent extent = done->extent;
      mark_subtree_shared(node);
      count(node, depth, extent);
      return extent;
    }
    Extent extent;
    count(node, depth, extent);
    if (node.IsSequence()) {
      for (const auto& item : node)
        extent.add_child(visit(item, depth + 1));
    } else if (node.IsMap()) {
      std::map<std::string, YAML::Mark> keys;
      for (const auto& entry : node) {
        const YAML::Node& key = entry.first;
        if (!key.IsScalar())
          fail(key, "expected a plain key, got a " + std::string(key.IsMap() ? "mapping" : "sequence"));
        if (key.Scalar() == "<<")
          fail(key, "merge keys (<<) are not supported (yaml-cpp 0.7 reads them as an ordinary key): write the "
                    "keys out, or reuse a whole mapping with an alias (*name)");
        const auto [first, fresh] = keys.emplace(key.Scalar(), key.Mark());
        if (!fresh)
          fail(key, "duplicate key '" + key.Scalar() + "' (first at " + where_(first->second) +
                        "): a key may appear once in a mapping");
        extent.add_child(visit(entry.second, depth + 1));
      }
    }
    if (!mark.is_null())
      checked_[mark.pos].push_back({node, extent});
    return extent;
  }

  YamlShape shape() const { return shape_; }

 private:
  // The record of this very node, if its subtree is checked. Distinct nodes can share a
  // position (an anchored first key and its mapping), so the position alone does not tell.
  CheckedNode* checked(const YAML::Node& node)
  {
    if (node.Mark().is_null())
      return nullptr;
    const auto at = checked_.find(node.Mark().pos);
    if (at == checked_.end())
      return nullptr;
    for (auto& done : at->second)
      if (done.node.is(node))
        return &done;
    return nullptr;
  }

  // Adds a subtree of `extent` met at `depth` to the nodes visited; fails past either limit.
  void count(const YAML::Node& node, size_t depth, const Extent& extent)
  {
    visited_ += extent.nodes;
    if (visited_ > kMaxYamlNodes)
      fail(node, "the document expands to more than " + std::to_string(kMaxYamlNodes) +
                     " YAML nodes (aliases of aliases?); write it out or make it smaller");
    if (depth + extent.height > kMaxYamlDepth)
      fail(node,
           "YAML nested deeper than " + std::to_string(kMaxYamlDepth) + " levels (an alias that refers to itself?)");
  }

  // A checked node reached again: the nodes under it are reached again too, as walking them
  // would have found. Each subtree is marked once however many aliases reach it.
  void mark_subtree_shared(const YAML::Node& node)
  {
    if (CheckedNode* done = checked(node)) {
      if (done->subtree_shared)
        return;
      done->subtree_shared = true;
    }
    const auto mark_child = [this](const YAML::Node& child) {
      if (!child.Mark().is_null())
        shape_.shared.insert(child.Mark().pos);
      mark_subtree_shared(child);
    };
    if (node.IsSequence())
      for (const auto& item : node)
        mark_child(item);
    else if (node.IsMap())
      for (const auto& entry : node)
        mark_child(entry.second);
  }

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const
  {
    throw ConfigError(where_(node.Mark()) + ": " + message);
  }

  const std::function<std::string(const YAML::Mark&)>& where_;
  size_t visited_ = 0;
  std::set<int> seen_;                               // Mark::pos of every node reached
  std::map<int, std::vector<CheckedNode>> checked_;  // by Mark::pos
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
