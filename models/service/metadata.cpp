// Service kind `metadata`: see sim/svc/metadata.hpp for what it models, its keys and its sources.
#include "sim/core/registry.hpp"
#include "sim/svc/metadata.hpp"

namespace llsim {

LLSIM_REGISTER(Service, "metadata", MetadataService, "metadata servers with per-operation rates (M/M/c)", MetadataService::params());

}  // namespace llsim
