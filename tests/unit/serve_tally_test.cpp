#include "sim/serve/engine/serve_tally.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

double metric(const Metrics& m, const std::string& name)
{
  for (const auto& [key, value] : m)
    if (key == name)
      return value;
  FAIL("no metric " << name);
  return 0;
}

}  // namespace

TEST_CASE("serve tally: the KV drain ends at the last write, or with the last request when none was left",
          "[serve_tally]")
{
  SloSpec slo;
  slo.ttft_s = 10;
  slo.tbt_s  = 1;
  std::vector<TraceRequest> requests(2);
  requests[0].output_tokens = requests[1].output_tokens = 1;
  ServeTally tally(requests, slo, 1, 1.0);
  tally.start(100);
  for (int64_t id = 0; id < 2; ++id) {
    tally.token(id, 101 + static_cast<double>(id), true);
    tally.finished(id, 101 + static_cast<double>(id));
  }
  ServeTotals none;
  CHECK(metric(tally.metrics(0, none), "kv_drain_end_s") == 102);
  CHECK(metric(tally.metrics(0, none), "kv_drain_bytes") == 0);
  ServeTotals drain;
  drain.drain_B     = 5e9;
  drain.drain_end_s = 500;
  CHECK(metric(tally.metrics(0, drain), "kv_drain_end_s") == 500);
  CHECK(metric(tally.metrics(0, drain), "kv_drain_bytes") == 5e9);
}

TEST_CASE("serve tally: the instances CSV names each instance's role", "[serve_tally]")
{
  std::vector<TraceRequest> requests(1);
  ServeTally tally(requests, SloSpec{}, 2, 1.0);
  tally.set_role(0, "prefill");
  tally.set_role(1, "decode");
  tally.iteration(0, 1, 1, 1, 4, 0.5);
  tally.iteration(1, 2, 1, 1, 4, 0.5);
  const CsvWriter t = tally.instances_table();
  REQUIRE(t.header.back() == "role");
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0].back() == "prefill");
  CHECK(t.rows[1].back() == "decode");
}
