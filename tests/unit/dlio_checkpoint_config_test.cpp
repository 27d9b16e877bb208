// The reader of DLIO checkpoint workload files (sim/train/dlio_checkpoint_config.hpp): MLPerf
// Storage's llama3-405b file gives the llama3-405b preset's shape and parallelism; absent keys
// take llsim's stated defaults; what llsim does not model is refused at its line.
#include "sim/core/errors.hpp"
#include "sim/train/dlio_checkpoint_config.hpp"
#include "temp_file.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("a DLIO checkpoint file gives the shape, parallelism and checkpoint counts it states")
{
  const DlioCheckpointWorkload w =
      read_dlio_checkpoint_config(std::string(LLSIM_TEST_DATA) + "/inputs/dlio_checkpoint/llama3_405b.yaml");
  const DlioCheckpointWorkload* preset = nullptr;
  for (const auto& p : dlio_checkpoint_presets())
    preset = p.name == "llama3-405b" ? &p : preset;
  REQUIRE(preset != nullptr);
  CHECK(w.name == "llama_405b");
  CHECK(dlio_parameter_count(w.shape) == dlio_parameter_count(preset->shape));
  CHECK(w.shape.kv_heads == preset->shape.kv_heads);
  CHECK(w.tensor == 8);
  CHECK(w.pipeline == 32);
  CHECK(w.zero_stage == 1);
  CHECK(w.saves == 10);
  CHECK(w.loads == 10);
}

TEST_CASE("absent keys of a DLIO checkpoint file take the documented defaults")
{
  const std::string file         = test::write_temp_file("minimal_checkpoint.yaml", R"(model:
  num_layers: 2
  transformer: {vocab_size: 10, hidden_size: 8, ffn_hidden_size: 16, num_attention_heads: 2, num_kv_heads: 1}
workflow: {checkpoint: True}
)");
  const DlioCheckpointWorkload w = read_dlio_checkpoint_config(file);
  CHECK(w.name == "dlio");
  CHECK(w.tensor == 1);
  CHECK(w.pipeline == 1);
  CHECK(w.zero_stage == 0);
  CHECK(w.saves == 1);
  CHECK(w.loads == 1);
}

TEST_CASE("a DLIO checkpoint file llsim cannot model is refused at its line")
{
  const auto refusal = [](const std::string& text) {
    const std::string file = test::write_temp_file("bad_checkpoint.yaml", text);
    try {
      read_dlio_checkpoint_config(file);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string shape =
      "model:\n  num_layers: 2\n  transformer: {vocab_size: 10, hidden_size: 8, ffn_hidden_size: 16, "
      "num_attention_heads: 2, num_kv_heads: 1}\n";
  CHECK_THAT(refusal(shape), Catch::Contains(":1:1: ") && Catch::Contains("does not checkpoint"));
  CHECK_THAT(refusal(shape + "workflow: {checkpoint: True, train: yes}\n"),
             Catch::Contains(":4:") && Catch::Contains("this workload trains"));
  CHECK_THAT(refusal(shape + "workflow: {checkpoint: True}\ncheckpoint: {fsync: false}\n"),
             Catch::Contains(":5:") && Catch::Contains("fsync: False"));
  CHECK_THAT(refusal("workflow: {checkpoint: True}\nmodel: {num_layers: 2}\n"),
             Catch::Contains("expected model.transformer"));
  CHECK_THAT(refusal(shape + "workflow: {checkpoint: maybe}\n"), Catch::Contains("expected True or False"));
}
