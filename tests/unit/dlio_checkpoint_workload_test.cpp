// The checkpoint workload of the dlio_checkpoint phase (sim/train/dlio_checkpoint_workload.hpp):
// DLIO's parameter count, the state's bytes per parameter and its sharding by ZeRO stage, and
// the presets against the checkpoint sizes MLPerf Storage publishes.
#include "sim/train/dlio_checkpoint_workload.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

const DlioCheckpointWorkload& preset(const std::string& name)
{
  for (const auto& w : dlio_checkpoint_presets())
    if (w.name == name)
      return w;
  FAIL("no preset " << name);
  throw;
}

}  // namespace

TEST_CASE("DLIO's parameter count of a Llama shape, term by term")
{
  // 1 layer, hidden 8, 2 heads of 4 wide, 1 KV head, MLP 16, vocabulary 10.
  const TransformerShape s{1, 8, 16, 10, 2, 1};
  const double embedding_and_head = 2 * 10 * 8;
  const double layer              = 2 * 8 + 2 * 8 * 8 + 2 * 8 * (1 * 4) + 3 * 8 * 16;  // norms, Q+O, K+V, gated MLP
  CHECK(dlio_parameter_count(s) == embedding_and_head + layer + 8);                    // + the final norm
  CHECK(dlio_parameter_count(preset("llama3-8b").shape) == 8030261248.0);
}

TEST_CASE("the presets give MLPerf Storage's published checkpoint sizes at its rank counts")
{
  const double gib                                                     = 1024.0 * 1024.0 * 1024.0;
  const std::pair<const char*, std::pair<int64_t, double>> published[] = {{"llama3-8b", {8, 104.70}},
                                                                          {"llama3-70b", {64, 911.21}},
                                                                          {"llama3-405b", {512, 5292.25}},
                                                                          {"llama3-1t", {1024, 15426.59}}};
  for (const auto& [name, ranks_size] : published) {
    const ModelState m = dlio_model_state(preset(name), ranks_size.first);
    CHECK(m.total_B() / gib == Approx(ranks_size.second).epsilon(2e-4));
  }
}

TEST_CASE("the state: 2 B of weights and 12 of optimizer per parameter, plus 60 B x hidden per rank")
{
  DlioCheckpointWorkload w = preset("llama3-8b");
  const double params      = dlio_parameter_count(w.shape);
  const ModelState one     = dlio_model_state(w, 1);
  const ModelState eight   = dlio_model_state(w, 8);
  CHECK(one.weight_B_per_param == 2);
  CHECK(one.total_B() == Approx(14 * params + 60 * 4096));
  CHECK(eight.total_B() - one.total_B() == Approx(7 * 60 * 4096));
}

TEST_CASE("the ZeRO stage is the state's sharding")
{
  DlioCheckpointWorkload w = preset("llama3-405b");
  CHECK(dlio_model_state(w, 512).sharding == Sharding::Zero1);
  const std::pair<int64_t, Sharding> stages[] = {
      {0, Sharding::None}, {1, Sharding::Zero1}, {2, Sharding::Zero2}, {3, Sharding::Zero3}};
  for (const auto& [stage, sharding] : stages) {
    w.zero_stage = stage;
    CHECK(dlio_model_state(w, 512).sharding == sharding);
  }
}
