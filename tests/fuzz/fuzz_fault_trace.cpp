// Fuzz target: the host fault trace reader (host,down_at,up_at), i.e. the `trace` fault model
// built for a fixed group of four hosts, as the scenario loader builds it. It returns a model
// or throws ConfigError. (The loader around it is fuzz_scenario's.)
#include "fuzz_input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/faults/fault_model.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace {

struct Fixture {
  std::shared_ptr<llsim::SourceInfo> source = std::make_shared<llsim::SourceInfo>();
  llsim::PlatformSpec platform;
  YAML::Node faults = YAML::Load("{impl: trace, file: faults.csv}");

  Fixture()
  {
    source->file = llsim::fuzz::scratch_file("scenario.yaml");
    platform     = llsim::parse_platform(llsim::Params(
            llsim::YamlRef(YAML::Load("{groups: {n: {count: 4, nic: {bandwidth: 1GBps}}}, backbone: {bandwidth: 1GBps}}"),
                           "platform", source),
            llsim::platform_params()));
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  static const Fixture fixture;
  llsim::fuzz::write_input("faults.csv", data, size);
  try {
    llsim::Registry<llsim::FaultModel>::create(llsim::YamlRef(fixture.faults, "faults[0]", fixture.source),
                                               {fixture.platform, fixture.platform.groups.front(), 1});
  } catch (const llsim::ConfigError&) {
  }
  return 0;
}
