#include "sim/core/random.hpp"
#include "sim/preprocess/minhash_lsh.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <set>

using namespace llsim;

namespace {

// A pair of shingle sets of `n` elements each sharing `m`: Jaccard m / (2n - m).
std::pair<std::vector<uint64_t>, std::vector<uint64_t>> planted_pair(Rng& rng, size_t n, size_t m)
{
  std::vector<uint64_t> a, b;
  for (size_t i = 0; i < n; ++i) {
    a.push_back(rng.bits());
    b.push_back(i < m ? a.back() : rng.bits());
  }
  return {a, b};
}

bool shares_a_band(const std::vector<uint64_t>& x, const std::vector<uint64_t>& y)
{
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] == y[i])
      return true;
  return false;
}

}  // namespace

TEST_CASE("minhash-lsh: the candidate rate at similarity s is 1 - (1 - s^r)^b", "[minhash_lsh]")
{
  Rng rng(11);
  for (const auto& [bands, rows] : std::vector<std::pair<int, int>>{{10, 5}, {14, 8}}) {
    MinHashLsh lsh({5, bands, rows, 3});
    for (double target : {0.3, 0.5, 0.7, 0.85}) {
      const size_t n  = 200;
      const auto m    = static_cast<size_t>(std::lround(2.0 * n * target / (1.0 + target)));
      const double s  = static_cast<double>(m) / static_cast<double>(2 * n - m);
      const int pairs = 400;
      int candidates  = 0;
      double agreeing = 0;
      for (int k = 0; k < pairs; ++k) {
        const auto [a, b] = planted_pair(rng, n, m);
        const auto sa = lsh.signature(a), sb = lsh.signature(b);
        for (size_t i = 0; i < sa.size(); ++i)
          agreeing += sa[i] == sb[i] ? 1 : 0;
        candidates += shares_a_band(lsh.band_keys(sa), lsh.band_keys(sb)) ? 1 : 0;
      }
      const double p     = MinHashLsh::candidate_probability(s, bands, rows);
      const double sigma = std::sqrt(p * (1 - p) / pairs);
      INFO("b " << bands << " r " << rows << " s " << s << ": " << candidates << " of " << pairs << " vs p " << p);
      CHECK(std::abs(candidates / double(pairs) - p) <= 4 * sigma + 1.0 / pairs);
      // Each signature component agrees with probability s.
      const double components = pairs * double(lsh.hashes());
      CHECK(agreeing / components == Approx(s).margin(4 * std::sqrt(s * (1 - s) / components) + 0.005));
    }
  }
}

TEST_CASE("minhash-lsh: a corpus with planted near-duplicates loses them and only them", "[minhash_lsh]")
{
  // 400 distinct documents of 300 random tokens, then 100 copies of the first 100 with 1 token in
  // 100 changed (shingle-set similarity about 0.9).
  Rng rng(5);
  MinHashLsh lsh({5, 14, 8, 9});
  std::vector<std::vector<uint32_t>> docs;
  for (int d = 0; d < 400; ++d) {
    std::vector<uint32_t> tokens;
    for (int t = 0; t < 300; ++t)
      tokens.push_back(static_cast<uint32_t>(rng.bits() % 50000));
    docs.push_back(tokens);
  }
  for (int d = 0; d < 100; ++d) {
    auto copy = docs[static_cast<size_t>(d)];
    for (size_t t = 0; t < copy.size(); t += 100)
      copy[t] = static_cast<uint32_t>(rng.bits() % 50000);
    docs.push_back(copy);
  }
  std::vector<std::vector<uint64_t>> keys;
  for (const auto& d : docs)
    keys.push_back(lsh.band_keys(lsh.signature(lsh.shingles(d))));
  const auto rep = MinHashLsh::clusters(keys);
  CHECK(std::set<size_t>(rep.begin(), rep.end()).size() == 400);
  for (int d = 0; d < 100; ++d)
    CHECK(rep[static_cast<size_t>(400 + d)] == rep[static_cast<size_t>(d)]);
}

TEST_CASE("union-find joins transitively", "[minhash_lsh]")
{
  UnionFind u(6);
  u.join(0, 1);
  u.join(2, 3);
  u.join(1, 3);
  CHECK(u.find(0) == u.find(2));
  CHECK(u.find(4) != u.find(0));
  CHECK(u.find(5) == 5);
}
