#include "sim/preprocess/dedup_job.hpp"

#include <catch2/catch.hpp>

#include <cmath>

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
  s.duplicate_fraction       = 0.2;  // found half the time: a tenth removed
  s.found_probability        = 0.5;
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
  CHECK(split.shuffle_B() == 1000 * 14 * 16);
  CHECK(plan[2].tasks == 4);
  CHECK(plan[2].each.input_B * 4 == Approx(split.shuffle_B()));
  CHECK(plan[2].each.core_s == Approx(1000 * 14 / 4 * 2e-7));
  CHECK(split.expected_removed() == Approx(100));
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

TEST_CASE("dedup job: what a pipeline reports depends on the stages that ran", "[dedup_job]")
{
  for (int stages = 1; stages <= 5; ++stages) {
    DedupSpec s = spec(stages % 2 == 0);
    s.stages    = stages;
    const DedupJob job(s);
    Rng rng(7);
    INFO("stages " << stages);
    CHECK(job.ran(DedupStage::Read));
    CHECK(job.ran(DedupStage::LshShuffle) == (stages >= 3));
    CHECK(job.ran(DedupStage::FilterWrite) == (stages == 5));
    // No shuffle ran: no shuffle bytes; no cluster: nothing found, expected or drawn.
    CHECK(job.reported_shuffle_B() == (stages >= 3 ? 1000 * 14 * 16 : 0));
    CHECK(job.reported_expected_removed() == (stages >= 4 ? Approx(100) : Approx(0)));
    const int64_t drawn = job.draw_removed(rng);
    if (stages < 4)
      CHECK(drawn == 0);
    else  // 200 near-duplicates, each found with probability 1/2: 100 +- 7
      CHECK(std::abs(drawn - 100) < 40);
  }
}

TEST_CASE("dedup job: documents removed is a whole count drawn with the seed", "[dedup_job]")
{
  DedupSpec s = spec(true);
  const DedupJob job(s);
  Rng a(11), b(11);
  CHECK(job.draw_removed(a) == job.draw_removed(b));
  // Over many draws: mean 200 x 0.5 and variance 200 x 0.5 x 0.5 (Binomial(200, 0.5)).
  Rng rng(3);
  double sum = 0, sq = 0;
  constexpr int kDraws = 20000;
  for (int i = 0; i < kDraws; ++i) {
    const double x = static_cast<double>(job.draw_removed(rng));
    sum += x;
    sq += x * x;
  }
  const double mean = sum / kDraws;
  CHECK(mean == Approx(100).epsilon(0.005));
  CHECK(sq / kDraws - mean * mean == Approx(50).epsilon(0.05));
  // Found every time, or never: exactly the near-duplicates, or none.
  s.found_probability = 1;
  CHECK(DedupJob(s).draw_removed(rng) == 200);
  s.found_probability = 0;
  CHECK(DedupJob(s).draw_removed(rng) == 0);
}
