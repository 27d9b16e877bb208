#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/preprocess/corpus_placement.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace llsim;

namespace {

std::unique_ptr<CorpusPlacement> make(const std::string& yaml, int64_t servers)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "s.yaml";
  return Registry<CorpusPlacement>::create(YamlRef(YAML::Load(yaml), "placement", source), {servers, "hdfs"});
}

std::vector<int64_t> servers_of(const CorpusPlacement& p, int64_t file)
{
  std::vector<int64_t> out;
  for (int64_t k = 0; k < p.copies(); ++k)
    out.push_back(p.server(file, k));
  return out;
}

}  // namespace

TEST_CASE("corpus placement: striped puts one copy of file f on server f mod servers", "[corpus_placement]")
{
  const auto p = make("{impl: striped}", 4);
  CHECK(p->copies() == 1);
  CHECK(servers_of(*p, 2) == std::vector<int64_t>{2});
  CHECK(servers_of(*p, 9) == std::vector<int64_t>{1});
}

TEST_CASE("corpus placement: replicated puts the copies on consecutive servers, wrapping", "[corpus_placement]")
{
  const auto p = make("{impl: replicated, replicas: 3}", 4);
  CHECK(p->copies() == 3);
  CHECK(servers_of(*p, 0) == std::vector<int64_t>{0, 1, 2});
  CHECK(servers_of(*p, 3) == std::vector<int64_t>{3, 0, 1});
  CHECK(make("{impl: replicated}", 4)->copies() == 3);  // HDFS's default
  CHECK_THROWS_WITH(make("{impl: replicated, replicas: 5}", 4),
                    Catch::Contains("placement.replicas: 5 copies of each file on 4 servers of 'hdfs'"));
}
