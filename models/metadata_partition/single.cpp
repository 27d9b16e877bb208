// Metadata partitioning `single`: the first server owns every path (one metadata server, the
// others idle). No keys.
#include "sim/core/registry.hpp"
#include "sim/svc/metadata_partition.hpp"

namespace llsim {

namespace {

const ParamTable kNoParams = {};

class SinglePartition : public MetadataPartition {
 public:
  SinglePartition(const Params&, const Context&) {}
  size_t server_of(const std::string&) const override { return 0; }
};

}  // namespace

LLSIM_REGISTER(MetadataPartition, "single", SinglePartition, "the first server owns every path", kNoParams);

}  // namespace llsim
