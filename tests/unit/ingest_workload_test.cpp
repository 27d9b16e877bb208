#include "sim/core/registry.hpp"
#include "sim/ingest/ingest_workload.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

using namespace llsim;

namespace {

std::vector<IngestOp> step_of(IngestWorkload& w, size_t step, int64_t ranks)
{
  std::vector<IngestOp> ops;
  IngestOp op;
  for (int64_t r = 0; r < ranks; ++r)
    while (w.next(step, r, &op))
      ops.push_back(op);
  return ops;
}

}  // namespace

TEST_CASE("ingest workloads: mdtest easy and hard namespaces", "[ingest_workload]")
{
  test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  auto easy = Registry<IngestWorkload>::create(w.yaml("{impl: mdtest, pattern: easy, files_per_rank: 3}"), {4, 1, "x"});
  REQUIRE(easy->steps() == 4);
  CHECK(step_of(*easy, 0, 4).size() == 1);  // the top directory
  const auto create = step_of(*easy, 1, 4);
  CHECK(create.size() == 4 + 12);  // each rank's directory, then its files
  std::set<std::string> dirs;
  for (const auto& op : create)
    if (op.op == MetaOp::Create) {
      dirs.insert(op.path.substr(0, op.path.rfind('/')));
      CHECK(op.bytes == 0);
    }
  CHECK(dirs.size() == 4);
  auto hard = Registry<IngestWorkload>::create(
      w.yaml("{impl: mdtest, pattern: hard, files_per_rank: 3, phases: [create]}"), {4, 1, "x"});
  step_of(*hard, 0, 4);
  dirs.clear();
  for (const auto& op : step_of(*hard, 1, 4)) {
    dirs.insert(op.path.substr(0, op.path.rfind('/')));
    CHECK(op.bytes == 3901);
  }
  CHECK(dirs == std::set<std::string>{"/mdtest-hard"});
}

TEST_CASE("ingest workloads: a tree does not depend on the number of ranks", "[ingest_workload]")
{
  test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  const std::string spec = "{impl: tree, files: 500, sites: 20, fanout: {dist: uniform, min: 1, max: 5}, skew: 1.5}";
  std::map<std::string, int> by_ranks[2];
  for (int k = 0; k < 2; ++k) {
    const int64_t ranks = k == 0 ? 1 : 7;
    auto tree           = Registry<IngestWorkload>::create(w.yaml(spec), {ranks, 3, "x"});
    for (size_t step = 0; step < tree->steps(); ++step)
      for (const auto& op : step_of(*tree, step, ranks))
        by_ranks[k][op.path] += 1;
  }
  CHECK(by_ranks[0] == by_ranks[1]);
  // Zipf with skew 1.5: the first site holds more files than the last.
  int first = 0, last = 0;
  for (const auto& [path, n] : by_ranks[0]) {
    first += path.rfind("/crawl/s0/", 0) == 0 && path.find("/f") != std::string::npos ? n : 0;
    last += path.rfind("/crawl/s19/", 0) == 0 && path.find("/f") != std::string::npos ? n : 0;
  }
  CHECK(first > 5 * last);
}
