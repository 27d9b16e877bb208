// Contract of a metadata model (registry "metadata_model", chosen with `impl:` under a metadata
// service's `model:`): where the namespace lives on the servers and what an operation costs in
// RPCs. Pure logic, no simulated time.
// - server_of(path): the server holding the entry of the file `path` (one-RPC callers: the requests
//   phase, a storage service creating a file).
// - lookup_server(dir): the server that answers the lookup of directory `dir` while a client
//   resolves a path one component at a time (a lookup is served at the `stat` rate).
// - parallel_lookups(): whether a client resolves all its uncached components at once
//   (speculatively, in parallel) rather than one after another.
// - rpcs(op, path): the RPCs of the operation itself, issued together; the operation is done
//   when every one has replied. Each names the server, the rate it is served at, and how it
//   changes the server's count of inodes.
// Models may keep state (subtree rebalancing sees every operation planned).
#pragma once
#include "sim/svc/meta_op.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace llsim {

struct MetaRpc {
  size_t server    = 0;
  MetaOp op        = MetaOp::Stat;
  int inodes       = 0;  // +1: an inode is created on the server; -1: one is removed
  uint64_t dir_key = 0;  // the directory whose entries or attributes it changes (journal blocks)
};

class MetadataModel {
 public:
  struct Context {
    size_t servers;
  };
  static constexpr const char* kInterfaceName = "metadata_model";
  static constexpr const char* kHeader        = "sim/svc/metadata_model.hpp";
  static constexpr const char* kSelector      = "impl";

  virtual ~MetadataModel()                                 = default;
  virtual size_t server_of(std::string_view path) const    = 0;
  virtual size_t lookup_server(std::string_view dir) const = 0;
  virtual bool parallel_lookups() const { return false; }
  virtual void rpcs(MetaOp op, std::string_view path, std::vector<MetaRpc>* out) = 0;
};

// An operation that adds (+1) or removes (-1) an inode, else 0.
int inode_change(MetaOp op);

}  // namespace llsim
