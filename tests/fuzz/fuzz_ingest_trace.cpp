// Fuzz target: the ingest trace reader (time_s,client,op,path[,bytes]), i.e. the `trace` ingest
// workload built for two client ranks, as the scenario loader builds it, then replayed to its
// end. Building it succeeds or throws ConfigError. (The loader around it is fuzz_scenario's.)
#include "fuzz_input_file.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/ingest/ingest_workload.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace {

constexpr int64_t kRanks = 2;

struct Fixture {
  std::shared_ptr<llsim::SourceInfo> source = std::make_shared<llsim::SourceInfo>();
  YAML::Node workload                       = YAML::Load("{impl: trace, file: ingest.csv}");

  Fixture() { source->file = llsim::fuzz::scratch_file("scenario.yaml"); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  static const Fixture fixture;
  llsim::fuzz::write_input("ingest.csv", data, size);
  std::unique_ptr<llsim::IngestWorkload> replay;
  try {
    replay = llsim::Registry<llsim::IngestWorkload>::create(
        llsim::YamlRef(fixture.workload, "phases[0].workload", fixture.source), {kRanks, 1, "fuzz"});
  } catch (const llsim::ConfigError&) {
    return 0;
  }
  llsim::IngestOp op;
  for (size_t step = 0; step < replay->steps(); ++step)
    for (int64_t rank = 0; rank < kRanks; ++rank)
      while (replay->next(step, rank, &op)) {
      }
  return 0;
}
