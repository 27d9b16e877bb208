// Fuzz target: the fault trace of events (InfiniteHBD's JSON, sim/faults/fault_event_trace.hpp)
// read by the `infinitehbd` fault model onto a group of four hosts, as the scenario loader builds
// it: the reader, the pairing of events and the mapping of nodes. The first byte picks the
// mapping (order or random), the rest is the file. It returns a model or throws ConfigError.
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
  YAML::Node in_order = YAML::Load("{impl: infinitehbd, file: events.json, map: order}");
  YAML::Node random   = YAML::Load("{impl: infinitehbd, file: events.json, map: random}");

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
  if (size == 0)
    return 0;
  llsim::fuzz::write_input("events.json", data + 1, size - 1);
  const YAML::Node& entry = data[0] % 2 == 0 ? fixture.in_order : fixture.random;
  try {
    const auto model = llsim::Registry<llsim::FaultModel>::create(
        llsim::YamlRef(entry, "faults[0]", fixture.source), {fixture.platform, fixture.platform.groups.front(), 7});
    for (size_t h = 0; h < 4; ++h) {
      llsim::Rng rng(1);
      for (size_t k = 0; k < 3; ++k)
        (void)model->outage(h, k, 0, rng);
      (void)model->mtbf_s(h);
    }
  } catch (const llsim::ConfigError&) {
  }
  return 0;
}
