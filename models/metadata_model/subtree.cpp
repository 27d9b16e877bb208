// Metadata model `subtree`: the namespace is cut into subtrees at depth `depth` (every directory
// "/a/b" with depth 2 heads one), each subtree placed on one server by a hash of its root, as a
// static subtree partition does; a path deeper than `depth` belongs to the subtree above it.
// Resolution is one lookup RPC per uncached directory, to the server of its subtree. A directory
// and all its entries stay on one server: a shared directory is one server's load whatever the
// number of servers.
//
//   model: {impl: subtree, depth: 2, rebalance: {threshold: 1.5, window: 10000}}
//
// Dynamic rebalancing (CephFS, Weil et al., SC'04): over each `window` operations the model
// counts the operations of every subtree; when the busiest server did more than `threshold`
// times the mean, its hottest subtree that can move without making the target busier than the
// busiest was moves to the least busy server. Migration itself is not charged (CephFS exports
// the subtree's metadata in the background). threshold 0 keeps the partition static.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/ingest_mdtest.yaml --set 'services.mds.model={impl: subtree}'
#include "sim/core/registry.hpp"
#include "sim/sg/log.hpp"
#include "sim/svc/meta_path.hpp"
#include "sim/svc/metadata_model.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

XBT_LOG_EXTERNAL_CATEGORY(llsim_ingest);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_metadata_model_subtree, llsim_ingest, "subtree rebalancing decisions");

namespace llsim {

namespace {

const ParamTable kRebalanceParams = {
    ParamSpec::quantity("threshold", Dimension::Number,
                        "move a subtree when the busiest server did more than this times the mean "
                        "(0: static partition)")
        .defaults("0")
        .at_least(0),
    ParamSpec::integer("window", "operations between two rebalancing decisions").defaults("10000").at_least(1),
};

const ParamTable kSubtreeParams = {
    ParamSpec::integer("depth", "depth of the subtree roots (1: one subtree per top-level directory)")
        .defaults("2")
        .at_least(1),
    ParamSpec::section("rebalance", "dynamic rebalancing {threshold, window}")
        .defaults("{}")
        .with_fields(kRebalanceParams),
};

class SubtreePartition : public MetadataModel {
 public:
  SubtreePartition(const Params& p, const Context& c)
      : servers_(c.servers)
      , depth_(static_cast<size_t>(p.integer("depth")))
  {
    const Params r = p.section("rebalance", kRebalanceParams);
    threshold_     = r.quantity("threshold");
    window_        = r.integer("window");
  }

  size_t server_of(std::string_view path) const override { return owner(path_prefix(parent_dir(path), depth_)); }
  size_t lookup_server(std::string_view dir) const override { return owner(path_prefix(dir, depth_)); }

  void rpcs(MetaOp op, std::string_view path, std::vector<MetaRpc>* out) override
  {
    // A directory operation belongs to the directory's subtree; a file's to its parent's.
    const std::string_view dir  = op == MetaOp::Mkdir || op == MetaOp::Readdir ? path : parent_dir(path);
    const std::string_view root = path_prefix(dir, depth_);
    out->push_back({owner(root), op, inode_change(op), path_hash(parent_dir(path))});
    if (threshold_ > 0)
      count(root);
  }

 private:
  size_t owner(std::string_view root) const
  {
    if (!moved_.empty()) {
      const auto it = moved_.find(std::string(root));
      if (it != moved_.end())
        return it->second;
    }
    return path_hash(root) % servers_;
  }

  void count(std::string_view root)
  {
    load_[std::string(root)] += 1;
    if (++seen_ < window_)
      return;
    rebalance();
    load_.clear();
    seen_ = 0;
  }

  void rebalance()
  {
    std::vector<int64_t> per_server(servers_, 0);
    for (const auto& [root, n] : load_)
      per_server[owner(root)] += n;
    const auto busiest =
        static_cast<size_t>(std::max_element(per_server.begin(), per_server.end()) - per_server.begin());
    const auto idlest =
        static_cast<size_t>(std::min_element(per_server.begin(), per_server.end()) - per_server.begin());
    const double mean = static_cast<double>(seen_) / static_cast<double>(servers_);
    XBT_DEBUG("rebalancing after %ld operations: the busiest server %zu did %ld, the least busy %zu did %ld (mean %g, "
              "threshold %g x mean)",
              static_cast<long>(seen_), busiest, static_cast<long>(per_server[busiest]), idlest,
              static_cast<long>(per_server[idlest]), mean, threshold_);
    if (static_cast<double>(per_server[busiest]) <= threshold_ * mean)
      return;
    // The hottest subtree of the busiest server that leaves the target below what the busiest
    // carried (a subtree that is the whole hotspot stays: moving it moves the hotspot). Ties go
    // to the smallest root, for determinism.
    const std::string* pick = nullptr;
    int64_t pick_load       = 0;
    for (const auto& [root, n] : load_)
      if (owner(root) == busiest && per_server[idlest] + n < per_server[busiest] &&
          (n > pick_load || (n == pick_load && pick && root < *pick))) {
        pick      = &root;
        pick_load = n;
      }
    if (!pick) {
      XBT_DEBUG("no subtree of server %zu can move without making server %zu the busiest", busiest, idlest);
      return;
    }
    XBT_DEBUG("moves subtree %s (%ld operations) from server %zu to server %zu", pick->c_str(),
              static_cast<long>(pick_load), busiest, idlest);
    moved_[*pick] = idlest;
  }

  size_t servers_, depth_;
  double threshold_;
  int64_t window_, seen_ = 0;
  std::map<std::string, int64_t> load_;  // ordered: the decision does not depend on hashing order
  std::unordered_map<std::string, size_t> moved_;
};

}  // namespace

LLSIM_REGISTER(MetadataModel, "subtree", SubtreePartition,
               "static subtree partition, optional CephFS-like rebalancing of hot subtrees", kSubtreeParams);

}  // namespace llsim
