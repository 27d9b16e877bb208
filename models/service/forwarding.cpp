// Service kind `forwarding`: see sim/svc/forwarding.hpp for what it models, its keys and its sources.
#include "sim/core/registry.hpp"
#include "sim/svc/forwarding.hpp"

namespace llsim {

LLSIM_REGISTER(Service, "forwarding", ForwardingService, "I/O forwarding nodes in front of a storage service", ForwardingService::params());

}  // namespace llsim
