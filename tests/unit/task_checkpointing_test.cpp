#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/mw/task_checkpointing.hpp"
#include "sim/svc/storage.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

const char* const kPlatform = R"(
groups:
  w: {count: 2, nic: {bandwidth: 1GBps}, disks: {read: 1GBps, write: 1GBps, capacity: 1TB}}
  srv: {count: 1, nic: {bandwidth: 1GBps}, disks: {read: 1GBps, write: 1GBps, capacity: 1TB}}
backbone: {bandwidth: 1GBps}
)";
const char* const kServices = "{scratch: {kind: storage, servers: w}, shared: {kind: storage, servers: srv}}";

std::unique_ptr<TaskCheckpointing> make(test::World& world, const std::string& yaml)
{
  return Registry<TaskCheckpointing>::create(world.yaml(yaml, "checkpoint"),
                                             {*world.platform, *world.platform->find("w"), *world.services});
}

}  // namespace

TEST_CASE("task checkpointing: who may resume", "[task_checkpointing]")
{
  test::World world(kPlatform, kServices);
  const SavedCheckpoint on_worker_1{40e9, 1};
  const SavedCheckpoint nothing{};
  CHECK_FALSE(make(world, "{impl: none}")->can_resume(on_worker_1, 1));
  const auto local = make(world, "{impl: local, size: 1GB, interval: 1min, storage: scratch}");
  CHECK(local->can_resume(on_worker_1, 1));
  CHECK_FALSE(local->can_resume(on_worker_1, 0));
  CHECK_FALSE(local->can_resume(nothing, 0));
  CHECK(local->interval_s() == 60);
  CHECK(local->store() == CheckpointStore::WorkerDisk);
  const auto shared = make(world, "{impl: shared, size: 1GB, storage: shared}");
  CHECK(shared->can_resume(on_worker_1, 0));
  CHECK_FALSE(shared->can_resume(nothing, 0));
  CHECK(shared->interval_s() == 600);
  CHECK(shared->storage()->name() == "shared");
}

TEST_CASE("task checkpointing: errors", "[task_checkpointing]")
{
  test::World world(kPlatform, kServices);
  CHECK_THROWS_WITH(make(world, "{impl: local, size: 1GB, storage: shared}"),
                    Catch::Contains("must be the worker group 'w', not 'srv'"));
  CHECK_THROWS_WITH(make(world, "{impl: shared, size: 1GB, storage: sharde}"),
                    Catch::Contains("did you mean 'shared'"));
  CHECK_THROWS_WITH(make(world, "{impl: shared, size: 1GB}"), Catch::Contains("missing required key 'storage'"));
}
