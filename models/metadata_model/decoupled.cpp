// Metadata model `decoupled`: a decoupled directory tree, as in InfiniFS (Lv et al., FAST'22)
// and SuperFS. Access metadata (a directory's id and permissions), which path resolution needs,
// is kept apart from content metadata (entries and inodes), which is placed by hash(parent
// directory id, name): the entries of one directory spread over every server, and a file's entry
// and inode are changed together by one RPC to one server. The parent directory's attributes
// (times, link count) are not updated on the critical path; InfiniFS and CFS (EuroSys'23)
// aggregate those updates, and llsim does not charge them.
//
// A client resolves the uncached directories of a path speculatively, all at once (InfiniFS
// predicts each directory's id from its path), so resolution costs one round of parallel lookups
// and an operation on a cached path one RPC. A readdir asks every server for its part of the
// directory. No keys.
//
// Placement: hash(parent id, name) with the id derived from the path is, for placement, the
// hash of the full path.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/ingest_mdtest.yaml --set 'services.mds.model={impl: decoupled}'
#include "sim/core/registry.hpp"
#include "sim/svc/meta_path.hpp"
#include "sim/svc/metadata_model.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class DecoupledTree : public MetadataModel {
 public:
  DecoupledTree(const Params&, const Context& c)
      : servers_(c.servers)
  {}
  size_t server_of(std::string_view path) const override { return path_hash(path) % servers_; }
  size_t lookup_server(std::string_view dir) const override { return server_of(dir); }
  bool parallel_lookups() const override { return true; }
  void rpcs(MetaOp op, std::string_view path, std::vector<MetaRpc>* out) override
  {
    if (op == MetaOp::Readdir) {
      for (size_t s = 0; s < servers_; ++s)
        out->push_back({s, op, 0, 0});
      return;
    }
    out->push_back({server_of(path), op, inode_change(op), path_hash(parent_dir(path))});
  }

 private:
  size_t servers_;
};

}  // namespace

LLSIM_REGISTER(MetadataModel, "decoupled", DecoupledTree,
               "entries and inodes on hash(parent id, name), speculative parallel resolution (InfiniFS, SuperFS)",
               kNoParams);

}  // namespace llsim
