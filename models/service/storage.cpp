// Service kind `storage`: see sim/svc/storage.hpp for what it models, its keys and its sources.
#include "sim/core/registry.hpp"
#include "sim/svc/storage.hpp"

namespace llsim {

LLSIM_REGISTER(Service, "storage", StorageService, "a parallel file system or node-local disks: targets, striping, threads, capacity", StorageService::params());

}  // namespace llsim
