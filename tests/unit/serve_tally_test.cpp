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
    tally.first_token(id, 101 + static_cast<double>(id));
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

TEST_CASE("serve tally: tokens told in runs give the gaps told one by one, and the streamed rows", "[serve_tally]")
{
  SloSpec slo;
  slo.ttft_s    = 10;
  slo.tbt_s     = 1;
  slo.statistic = TbtStatistic::Max;
  std::vector<TraceRequest> requests(1);
  requests[0].output_tokens = 6;
  ServeTally tally(requests, slo, 1, 1.0);
  tally.start(0);
  tally.first_token(0, 1.0);
  const std::vector<double> first_run = {1.5, 2.5}, second_run = {2.75, 3.0, 3.25};  // gaps .5 1 .25 .25 .25
  tally.tokens(0, first_run.data(), 2);
  tally.tokens(0, second_run.data(), 3);
  tally.finished(0, 3.25);
  const Metrics m = tally.metrics(0, ServeTotals{});
  CHECK(metric(m, "mean_tpot_s") == Approx(2.25 / 5));
  CHECK(metric(m, "mean_slo_tbt_s") == 1.0);
  CHECK(metric(m, "output_tokens") == 6);
  // The requests table's rows are made as it is written.
  const CsvWriter t = tally.requests_table();
  CHECK(t.rows.empty());
  const std::string text = t.text();
  CHECK(text.substr(0, text.find('\n')) ==
        "request,arrival_s,first_token_s,finish_s,ttft_s,tpot_s,slo_tbt_s,output_tokens,hit_blocks,blocks,instance,"
        "met_slo,rejected,failed,timed_out");
  CHECK(text.find("\n0,0,1,3.25,1,0.45,1,6,0,0,-1,1,0,0,0\n") != std::string::npos);
}
