#include "sim/svc/disk_worker.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace llsim;

TEST_CASE("target credit: first come, first served; a big write waits for an empty share", "[disk_worker]")
{
  TargetCredit credit(100);
  std::vector<int> admitted;
  credit.take(60, [&] { admitted.push_back(1); });
  credit.take(60, [&] { admitted.push_back(2); });  // does not fit yet
  credit.take(10, [&] { admitted.push_back(3); });  // would fit, but waits its turn
  CHECK(admitted == std::vector<int>{1});
  credit.give(60);
  CHECK(admitted == std::vector<int>{1, 2, 3});
  credit.take(500, [&] { admitted.push_back(4); });  // larger than the share: waits for empty
  credit.give(60);
  CHECK(admitted.size() == 3);
  credit.give(10);
  CHECK(admitted.back() == 4);
}
