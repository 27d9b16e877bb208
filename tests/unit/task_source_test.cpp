#include "sim/core/errors.hpp"
#include "sim/mw/task_checkpointing.hpp"
#include "sim/mw/task_source.hpp"
#include "temp_file.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

std::vector<Task> load(const std::string& yaml, const std::string& file = "t.yaml")
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = file;
  Rng rng(3);
  return load_tasks(Params(YamlRef(YAML::Load(yaml), "tasks", source), task_source_params()), rng);
}

}  // namespace

TEST_CASE("task source: generator", "[tasks]")
{
  const auto tasks = load("{count: 5, flops: 2TFlops, input: 1MB, arrival: 2s}");
  REQUIRE(tasks.size() == 5);
  CHECK(tasks[4].submit_s == 8);
  CHECK(tasks[0].flops == 2e12);
  CHECK(tasks[0].input_B == 1e6);
  CHECK(tasks[0].output_B == 0);
  CHECK(load("{count: 3, flops: 1TFlops}")[2].submit_s == 0);
}

TEST_CASE("task source: trace, sorted by submit time, with ids", "[tasks]")
{
  const std::string file = test::write_temp_file("tasks.csv", "submit_time,flops,input_bytes,output_bytes,id\n"
                                                              "5,1e12,10,1,late\n0,2e12,20,2,early\n");
  const auto tasks       = load("{trace: tasks.csv}", file);
  REQUIRE(tasks.size() == 2);
  CHECK(tasks[0].id == "early");
  CHECK(tasks[1].submit_s == 5);
}

TEST_CASE("task source: errors", "[tasks]")
{
  const std::string bad = test::write_temp_file("neg.csv", "submit_time,flops,input_bytes,output_bytes\n0,-1,0,0\n");
  CHECK_THROWS_WITH(load("{trace: neg.csv}", bad), Catch::Contains("neg.csv:2: flops must be positive"));
  CHECK_THROWS_WITH(load("{count: 3}"), Catch::Contains("missing 'flops'"));
  CHECK_THROWS_WITH(load("{count: 0, flops: 1TFlops}"), Catch::Contains(">= 1"));
  CHECK_THROWS_WITH(load("{trace: x.csv, flops: 1TFlops}"), Catch::Contains("not both"));
}
