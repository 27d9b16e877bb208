// Service kind `memory_pool`: see sim/svc/memory_pool.hpp for what it models, its keys and its sources.
#include "sim/core/registry.hpp"
#include "sim/svc/memory_pool.hpp"

namespace llsim {

LLSIM_REGISTER(Service, "memory_pool", MemoryPool, "named blocks in server memory with an eviction policy", MemoryPool::params());

}  // namespace llsim
