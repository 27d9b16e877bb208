#include "sim/preprocess/dedup_job.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

DedupSpec spec(bool fused)
{
  DedupSpec s;
  s.documents                = 1000;
  s.bytes                    = 8e6;
  s.files                    = 10;
  s.bands                    = 14;
  s.rows                     = 8;
  s.key_B                    = 8;
  s.id_B                     = 8;
  s.reducers                 = 4;
  s.removed_fraction         = 0.1;
  s.read                     = {1e-8, 0, 1000, 1};
  s.minhash                  = {5e-8, 0, 100, 1};
  s.shuffle                  = {0, 2e-7, 32, 1};
  s.cluster                  = {0, 1e-6, 32, 1};
  s.filter                   = {2e-9, 0, 1000, 1};
  s.engine.fuse_read_minhash = fused;
  return s;
}

}  // namespace

TEST_CASE("dedup job: stages, tasks and bytes", "[dedup_job]")
{
  const DedupJob split(spec(false));
  const auto plan = split.stages();
  REQUIRE(plan.size() == 5);
  CHECK(plan[0].stage == DedupStage::Read);
  CHECK(plan[0].tasks == 10);
  CHECK(plan[0].each.input_B == Approx(8e5));
  CHECK(plan[0].each.core_s == Approx(8e5 * 1e-8));
  // minhash writes the band records: 100 documents x 14 bands x 16 bytes per partition.
  CHECK(plan[1].each.output_B == Approx(100 * 14 * 16));
  CHECK(split.shuffle_bytes() == 1000 * 14 * 16);
  CHECK(plan[2].tasks == 4);
  CHECK(plan[2].each.input_B * 4 == Approx(split.shuffle_bytes()));
  CHECK(plan[2].each.core_s == Approx(1000 * 14 / 4 * 2e-7));
  CHECK(split.documents_removed() == Approx(100));
  CHECK(plan[3].tasks == 1);
  CHECK(plan[3].each.input_B == Approx(100 * 2 * 8));
  CHECK(plan[4].each.output_B == Approx(8e5 * 0.9));
  // Fused: one pass costs both and writes no parsed copy; filter_write reads the corpus again.
  const auto fused = DedupJob(spec(true)).stages();
  REQUIRE(fused.size() == 4);
  CHECK(fused[0].stage == DedupStage::ReadMinhash);
  CHECK(fused[0].each.core_s == Approx(8e5 * 1e-8 + 8e5 * 5e-8));
  CHECK(fused[0].each.output_B == Approx(100 * 14 * 16));
  // An engine's factors: operators times the factor, serialisation on bytes in and out.
  DedupSpec slow                = spec(false);
  slow.engine.operator_factor   = 3;
  slow.engine.serialize_s_per_B = 1e-9;
  slow.engine.memory_factor     = 2;
  const auto s                  = DedupJob(slow).stages();
  CHECK(s[0].each.core_s == Approx(3 * 8e5 * 1e-8 + (8e5 + 8e5) * 1e-9));
  CHECK(s[0].each.memory_B == Approx(2 * 100 * 1000));
  // A prefix of the pipeline.
  DedupSpec read_only = spec(true);
  read_only.stages    = 1;
  const auto r        = DedupJob(read_only).stages();
  REQUIRE(r.size() == 1);
  CHECK(r[0].stage == DedupStage::Read);
}
