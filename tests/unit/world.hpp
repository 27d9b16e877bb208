// A platform, its host faults and its services built from YAML text, as a scenario would
// build them, for unit tests of models that take them as context.
#pragma once
#include "sim/faults/host_faults.hpp"
#include "sim/platform/platform_spec.hpp"
#include "sim/svc/directory.hpp"

#include <memory>
#include <string>

namespace llsim::test {

struct World {
  std::shared_ptr<SourceInfo> source = std::make_shared<SourceInfo>();
  std::unique_ptr<PlatformSpec> platform;
  std::unique_ptr<HostFaults> faults;
  std::unique_ptr<ServiceDirectory> services;

  // `platform` is the text of a scenario's platform section; `services` (optional) of its
  // services section; `faults` (optional) of its faults list.
  explicit World(const std::string& platform_yaml, const std::string& services_yaml = "{}",
                 const std::string& faults_yaml = "[]", uint64_t seed = 1)
  {
    source->file = "world.yaml";
    platform     = std::make_unique<PlatformSpec>(
        parse_platform(Params(YamlRef(YAML::Load(platform_yaml), "platform", source), platform_params())));
    faults = std::make_unique<HostFaults>(*platform, seed);
    faults->load(YamlRef(YAML::Load(faults_yaml), "faults", source));
    services = std::make_unique<ServiceDirectory>(*platform, seed);
    services->load(YamlRef(YAML::Load(services_yaml), "services", source));
  }

  YamlRef yaml(const std::string& text, const std::string& path = "x") const
  {
    return YamlRef(YAML::Load(text), path, source);
  }
};

}  // namespace llsim::test
