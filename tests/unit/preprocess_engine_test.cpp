// The preprocess engines (models/preprocess_engine/): the traits each gives the preprocess phase
// (sim/preprocess/preprocess_engine.hpp), and what they make of a small corpus's deduplication
// job (sim/preprocess/dedup_job.hpp): the stages, the tasks, each task's core time, bytes and
// memory, worked out by hand. Where the tasks then run and which bytes cross the network needs
// SimGrid and is checked through llsim (tests/llsim/test_preprocess.py).
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/preprocess/dedup_job.hpp"
#include "sim/preprocess/preprocess_engine.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace llsim;

namespace {

EngineTraits traits(const std::string& yaml)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "e.yaml";
  return Registry<PreprocessEngine>::create(YamlRef(YAML::Load(yaml), "engine", source), {})->traits();
}

// 1000 documents, 8 MB in 4 files (250 documents and 2 MB a partition), 2 reducers, b 14 x r 8,
// records of 8 + 8 B, a tenth removed. Costs per core: read 10 ns/B + 1 us/document, 4000 B of
// memory a document; minhash 50 ns/B, 1000 B; shuffle 200 ns a record, 32 B; cluster 1 us a pair;
// filter 2 ns/B.
DedupSpec corpus(const EngineTraits& engine)
{
  DedupSpec s;
  s.documents          = 1000;
  s.bytes              = 8e6;
  s.files              = 4;
  s.reducers           = 2;
  s.duplicate_fraction = 0.1;
  s.found_probability  = 1;
  s.read               = {10e-9, 1e-6, 4000, 1};
  s.minhash            = {50e-9, 0, 1000, 1};
  s.shuffle            = {0, 200e-9, 32, 1};
  s.cluster            = {0, 1e-6, 0, 1};
  s.filter             = {2e-9, 0, 0, 1};
  s.engine             = engine;
  return s;
}

double total_core_s(const std::vector<StagePlan>& plan)
{
  double s = 0;
  for (const auto& st : plan)
    s += static_cast<double>(st.tasks) * st.each.core_s;
  return s;
}

}  // namespace

TEST_CASE("preprocess engine compute_centric: remote reads, overhead, serialisation both ways, memory",
          "[preprocess_engine]")
{
  const EngineTraits d = traits("{impl: compute_centric}");
  CHECK(d.operator_factor == 3);
  CHECK(d.serialize_s_per_B == Approx(2 * 5e-9));  // 5 ns a byte, in and out
  CHECK(d.memory_factor == 2);
  CHECK(d.pull_remote);
  CHECK_FALSE(d.fuse_read_minhash);
  const EngineTraits g = traits("{impl: compute_centric, runtime_overhead: 6, serialization: 20ns, memory_factor: 4}");
  CHECK(g.operator_factor == 6);
  CHECK(g.serialize_s_per_B == Approx(40e-9));
  CHECK(g.memory_factor == 4);
  CHECK(g.pull_remote);
  CHECK(traits("{impl: compute_centric, serialization: 0s}").serialize_s_per_B == 0);
  CHECK_THROWS_AS(traits("{impl: compute_centric, runtime_overhead: 0.5}"), ConfigError);  // at least 1
  CHECK_THROWS_AS(traits("{impl: compute_centric, serialization: -1ns}"), ConfigError);
  CHECK_THROWS_AS(traits("{impl: compute_centric, memory_factor: 0}"), ConfigError);
}

TEST_CASE("preprocess engine data_centric: native, local, read and minhash fused", "[preprocess_engine]")
{
  const EngineTraits d = traits("{impl: data_centric}");
  CHECK(d.operator_factor == 1);
  CHECK(d.serialize_s_per_B == 0);
  CHECK(d.memory_factor == 0.5);
  CHECK_FALSE(d.pull_remote);
  CHECK(d.fuse_read_minhash);
  CHECK(traits("{impl: data_centric, memory_factor: 2}").memory_factor == 2);
  CHECK_THROWS_AS(traits("{impl: data_centric, memory_factor: 0}"), ConfigError);
  CHECK_THROWS_WITH(traits("{impl: data_centric, runtime_overhead: 3}"),
                    Catch::Contains("unknown key 'runtime_overhead'"));
}

TEST_CASE("preprocess engine compute_centric on a small corpus: five stages, every cost x 3 plus 10 ns/B",
          "[preprocess_engine]")
{
  const auto plan = DedupJob(corpus(traits("{impl: compute_centric}"))).stages();
  REQUIRE(plan.size() == 5);
  // read: 4 tasks of 2 MB, 250 documents: (2e6 x 10 ns + 250 x 1 us) x 3 + (2 MB in + 2 MB out) x 10 ns
  //       = 0.06075 + 0.04 = 0.10075 s; memory 250 x 4000 x 2 = 2 MB; the parsed copy is written.
  CHECK(plan[0].stage == DedupStage::Read);
  CHECK(plan[0].tasks == 4);
  CHECK(plan[0].each.input_B == Approx(2e6));
  CHECK(plan[0].each.output_B == Approx(2e6));
  CHECK(plan[0].each.core_s == Approx(0.10075));
  CHECK(plan[0].each.memory_B == Approx(2e6));
  // minhash: 2e6 x 50 ns x 3 + (2e6 + 250 x 14 x 16 = 56000 B) x 10 ns = 0.3 + 0.02056 s; 250 x 1000 x 2 B.
  CHECK(plan[1].stage == DedupStage::Minhash);
  CHECK(plan[1].tasks == 4);
  CHECK(plan[1].each.output_B == Approx(56000));
  CHECK(plan[1].each.core_s == Approx(0.32056));
  CHECK(plan[1].each.memory_B == Approx(5e5));
  // lsh_shuffle: 2 reducers, each 1000 x 14 / 2 = 7000 records (112000 B) in, 100 pairs x 16 B / 2 = 800 B out:
  //   7000 x 200 ns x 3 + (112000 + 800) x 10 ns = 0.0042 + 0.001128 s.
  CHECK(plan[2].stage == DedupStage::LshShuffle);
  CHECK(plan[2].tasks == 2);
  CHECK(plan[2].each.input_B == Approx(112000));
  CHECK(plan[2].each.core_s == Approx(0.005328));
  CHECK(plan[2].each.memory_B == Approx(7000 * 32 * 2));
  // cluster: 100 pairs x 1 us x 3 + (1600 + 800) x 10 ns.
  CHECK(plan[3].tasks == 1);
  CHECK(plan[3].each.core_s == Approx(0.000324));
  // filter_write: the parsed copy in (2 MB), 90% out: 2e6 x 2 ns x 3 + 3.8e6 x 10 ns = 0.012 + 0.038 s.
  CHECK(plan[4].stage == DedupStage::FilterWrite);
  CHECK(plan[4].tasks == 4);
  CHECK(plan[4].each.input_B == Approx(2e6));
  CHECK(plan[4].each.output_B == Approx(1.8e6));
  CHECK(plan[4].each.core_s == Approx(0.05));
  CHECK(total_core_s(plan) == Approx(1.89622));
}

TEST_CASE("preprocess engine data_centric on a small corpus: four stages at the operators' own cost",
          "[preprocess_engine]")
{
  const auto plan = DedupJob(corpus(traits("{impl: data_centric}"))).stages();
  REQUIRE(plan.size() == 4);
  // read+minhash: 4 tasks reading the 2-MB partition, writing its 56000 B of band records:
  //   2e6 x 10 ns + 250 x 1 us + 2e6 x 50 ns = 0.12025 s; memory (250 x 4000 + 250 x 1000) x 0.5.
  CHECK(plan[0].stage == DedupStage::ReadMinhash);
  CHECK(plan[0].tasks == 4);
  CHECK(plan[0].each.input_B == Approx(2e6));
  CHECK(plan[0].each.output_B == Approx(56000));
  CHECK(plan[0].each.core_s == Approx(0.12025));
  CHECK(plan[0].each.memory_B == Approx(625000));
  CHECK(plan[1].stage == DedupStage::LshShuffle);
  CHECK(plan[1].each.core_s == Approx(7000 * 200e-9));
  CHECK(plan[1].each.memory_B == Approx(7000 * 32 * 0.5));
  CHECK(plan[2].stage == DedupStage::Cluster);
  CHECK(plan[2].each.core_s == Approx(100 * 1e-6));
  // filter_write reads the corpus file again and parses it again: 2e6 x 2 ns + 2e6 x 10 ns + 250 x 1 us.
  CHECK(plan[3].stage == DedupStage::FilterWrite);
  CHECK(plan[3].each.input_B == Approx(2e6));
  CHECK(plan[3].each.output_B == Approx(1.8e6));
  CHECK(plan[3].each.core_s == Approx(0.02425));
  CHECK(total_core_s(plan) == Approx(0.5809));
  // Eleven tasks against compute_centric's fifteen.
  int64_t tasks = 0;
  for (const auto& st : plan)
    tasks += st.tasks;
  CHECK(tasks == 4 + 2 + 1 + 4);
}

TEST_CASE("preprocess engine parameters reach the tasks", "[preprocess_engine]")
{
  // compute_centric with no overhead, no serialisation, factor 1: the read at its own cost, 0.02025 s,
  // still split from minhash and still remote.
  const EngineTraits bare = traits("{impl: compute_centric, runtime_overhead: 1, serialization: 0s, memory_factor: 1}");
  CHECK(bare.pull_remote);
  const auto plan = DedupJob(corpus(bare)).stages();
  REQUIRE(plan.size() == 5);
  CHECK(plan[0].each.core_s == Approx(0.02025));
  CHECK(plan[0].each.memory_B == Approx(1e6));
  // runtime_overhead 6, serialization 20 ns (40 ns a byte both ways): read (0.02025) x 6 + 4e6 x 40 ns.
  const EngineTraits slow = traits("{impl: compute_centric, runtime_overhead: 6, serialization: 20ns}");
  const auto heavy        = DedupJob(corpus(slow)).stages();
  CHECK(heavy[0].each.core_s == Approx(0.1215 + 0.16));
  // data_centric memory_factor 2: read+minhash holds (1e6 + 2.5e5) x 2.
  const auto wide = DedupJob(corpus(traits("{impl: data_centric, memory_factor: 2}"))).stages();
  CHECK(wide[0].each.memory_B == Approx(2.5e6));
  CHECK(wide[0].each.core_s == Approx(0.12025));
}
