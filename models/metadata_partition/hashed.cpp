// Metadata partitioning `hashed`: the server of a path is a hash of the full path (FNV-1a) modulo
// the number of servers, so paths spread evenly whatever the directory tree (as in GIGA+ and
// IndexFS for entries of one directory). No keys.
#include "sim/core/registry.hpp"
#include "sim/svc/metadata_partition.hpp"

#include <cstdint>

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class HashedPartition : public MetadataPartition {
 public:
  HashedPartition(const Params&, const Context& c) : servers_(c.servers) {}
  size_t server_of(const std::string& path) const override
  {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (char ch : path) {
      h ^= static_cast<unsigned char>(ch);
      h *= 0x100000001b3ULL;
    }
    return static_cast<size_t>(h % servers_);
  }

 private:
  size_t servers_;
};

}  // namespace

LLSIM_REGISTER(MetadataPartition, "hashed", HashedPartition, "server = hash(path) mod servers", kNoParams);

}  // namespace llsim
