#include "models/phase/transfer_plan.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("transfer plan: streams are dealt round-robin to receivers, a round per stream index", "[transfer]")
{
  const auto streams = plan_streams(3, 2, 4, 10e9);
  REQUIRE(streams.size() == 6);
  // First streams of senders 0, 1, 2, then their second streams.
  const size_t expected_receiver[] = {0, 1, 2, 3, 0, 1};
  const size_t expected_sender[]   = {0, 1, 2, 0, 1, 2};
  for (size_t i = 0; i < streams.size(); ++i) {
    CHECK(streams[i].receiver == expected_receiver[i]);
    CHECK(streams[i].sender == expected_sender[i]);
    CHECK(streams[i].bytes == 5e9);
  }
}

TEST_CASE("transfer plan: more receivers than streams leaves some idle", "[transfer]")
{
  const auto streams = plan_streams(2, 1, 5, 1e9);
  REQUIRE(streams.size() == 2);
  CHECK(streams[0].receiver == 0);
  CHECK(streams[1].receiver == 1);
}
