// Metadata model `hashed`: every inode lives on the server hash(full path) mod servers, as in
// GIGA+ and IndexFS, where a directory's entries are spread over the servers by hashing
// (Patil & Gibson, FAST'11; Ren et al., SC'14). A path is resolved one component at a time, each
// uncached directory a lookup RPC to the server of its own path.
//
// What it costs: an operation that adds or removes an entry (mkdir, create, unlink) also updates
// the attributes of the parent directory (its link count and times), which live with the
// parent's inode on hash(parent path): a second RPC, served at the operation's rate. Creates in
// one shared directory therefore all meet at one server, the hotspot that InfiniFS and CFS
// (FAST'22, EuroSys'23) describe and remove. A readdir asks every server for its part of the
// directory. No keys.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/ingest_mdtest.yaml --set 'services.mds.model={impl: hashed}'
#include "sim/core/registry.hpp"
#include "sim/svc/meta_path.hpp"
#include "sim/svc/metadata_model.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class HashedPaths : public MetadataModel {
 public:
  HashedPaths(const Params&, const Context& c)
      : servers_(c.servers)
  {}
  size_t server_of(std::string_view path) const override { return path_hash(path) % servers_; }
  size_t lookup_server(std::string_view dir) const override { return server_of(dir); }
  void rpcs(MetaOp op, std::string_view path, std::vector<MetaRpc>* out) override
  {
    const std::string_view parent = parent_dir(path);
    if (op == MetaOp::Readdir) {
      for (size_t s = 0; s < servers_; ++s)
        out->push_back({s, op, 0, 0});
      return;
    }
    out->push_back({server_of(path), op, inode_change(op), path_hash(path)});
    if (inode_change(op) != 0)
      out->push_back({server_of(parent), op, 0, path_hash(parent)});
  }

 private:
  size_t servers_;
};

}  // namespace

LLSIM_REGISTER(MetadataModel, "hashed", HashedPaths,
               "inode on hash(path); entry changes also update the parent on hash(parent) (GIGA+, IndexFS)", kNoParams);

}  // namespace llsim
