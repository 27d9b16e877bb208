// Metadata model `single`: one metadata server owns the whole namespace (the first server of the
// service; the others stay idle), like a Lustre file system with one MDT or an HDFS NameNode.
// Every lookup and every operation is one RPC to it. No keys.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/ingest_mdtest.yaml --set 'services.mds.model={impl: single}'
#include "sim/core/registry.hpp"
#include "sim/svc/meta_path.hpp"
#include "sim/svc/metadata_model.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class SingleServer : public MetadataModel {
 public:
  SingleServer(const Params&, const Context&) {}
  size_t server_of(std::string_view) const override { return 0; }
  size_t lookup_server(std::string_view) const override { return 0; }
  void rpcs(MetaOp op, std::string_view path, std::vector<MetaRpc>* out) override
  {
    out->push_back({0, op, inode_change(op), path_hash(parent_dir(path))});
  }
};

}  // namespace

LLSIM_REGISTER(MetadataModel, "single", SingleServer, "one server owns every path", kNoParams);

}  // namespace llsim
