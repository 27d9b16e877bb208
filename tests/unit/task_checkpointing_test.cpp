#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/mw/task_checkpointing.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

std::unique_ptr<TaskCheckpointing> make(const std::string& yaml, bool disks = true)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "c.yaml";
  const std::string platform = std::string("groups:\n  w: {count: 2, nic: {bandwidth: 1GBps}") +
                               (disks ? ", disks: {read: 1GBps, write: 1GBps, capacity: 1TB}" : "") +
                               "}\n  srv: {count: 1, nic: {bandwidth: 1GBps}}\nbackbone: {bandwidth: 1GBps}\n";
  static PlatformSpec spec;
  spec = parse_platform(Params(YamlRef(YAML::Load(platform), "platform", source), platform_params()));
  return Registry<TaskCheckpointing>::create(YamlRef(YAML::Load(yaml), "checkpoint", source), {spec, *spec.find("w")});
}

}  // namespace

TEST_CASE("task checkpointing: who may resume", "[checkpoint]")
{
  const SavedCheckpoint on_worker_1{40e9, 1, -1};
  const SavedCheckpoint on_server{40e9, 1, 0};
  const SavedCheckpoint nothing{};
  CHECK_FALSE(make("{impl: none}")->can_resume(on_worker_1, 1));
  const auto local = make("{impl: local, size: 1GB, interval: 1min}");
  CHECK(local->can_resume(on_worker_1, 1));
  CHECK_FALSE(local->can_resume(on_worker_1, 0));
  CHECK_FALSE(local->can_resume(nothing, 0));
  CHECK(local->interval_s() == 60);
  const auto shared = make("{impl: shared, size: 1GB, server: srv}");
  CHECK(shared->can_resume(on_server, 0));
  CHECK_FALSE(shared->can_resume(nothing, 0));
  CHECK(shared->interval_s() == 600);
  CHECK(shared->server_group() == "srv");
}

TEST_CASE("task checkpointing: errors", "[checkpoint]")
{
  CHECK_THROWS_WITH(make("{impl: local, size: 1GB}", false), Catch::Contains("has no 'disks'"));
  CHECK_THROWS_WITH(make("{impl: shared, size: 1GB, server: serv}"), Catch::Contains("did you mean 'srv'"));
  CHECK_THROWS_WITH(make("{impl: shared, size: 1GB}"), Catch::Contains("missing required key 'server'"));
}
