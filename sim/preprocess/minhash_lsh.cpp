#include "sim/preprocess/minhash_lsh.hpp"

#include "sim/core/random.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace llsim {

namespace {

constexpr uint64_t kMersenne61 = (uint64_t{1} << 61) - 1;

// (a x + b) mod 2^61 - 1 without overflow (128-bit product).
uint64_t universal_hash(uint64_t a, uint64_t b, uint64_t x)
{
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * (x % kMersenne61) + b;
  uint64_t r                = static_cast<uint64_t>(p & kMersenne61) + static_cast<uint64_t>(p >> 61);
  while (r >= kMersenne61)
    r -= kMersenne61;
  return r;
}

uint64_t mix(uint64_t h, uint64_t v)
{
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 31);
}

}  // namespace

MinHashLsh::MinHashLsh(const MinHashSpec& spec)
    : spec_(spec)
{
  Rng rng(spec.seed);
  for (int k = 0; k < hashes(); ++k) {
    a_.push_back(1 + rng.bits() % (kMersenne61 - 1));
    b_.push_back(rng.bits() % kMersenne61);
  }
}

std::vector<uint64_t> MinHashLsh::shingles(const std::vector<uint32_t>& tokens) const
{
  std::vector<uint64_t> out;
  const size_t w = static_cast<size_t>(spec_.shingle);
  const size_t n = tokens.size() >= w ? tokens.size() - w + 1 : 1;
  for (size_t i = 0; i < n; ++i) {
    uint64_t h = 0x2545f4914f6cdd1dULL;
    for (size_t j = i; j < std::min(i + w, tokens.size()); ++j)
      h = mix(h, tokens[j]);
    out.push_back(h);
  }
  return out;
}

std::vector<uint64_t> MinHashLsh::signature(const std::vector<uint64_t>& shingles) const
{
  std::vector<uint64_t> sig(static_cast<size_t>(hashes()), std::numeric_limits<uint64_t>::max());
  for (uint64_t s : shingles)
    for (size_t k = 0; k < sig.size(); ++k)
      sig[k] = std::min(sig[k], universal_hash(a_[k], b_[k], s));
  return sig;
}

std::vector<uint64_t> MinHashLsh::band_keys(const std::vector<uint64_t>& signature) const
{
  std::vector<uint64_t> keys;
  for (int band = 0; band < spec_.bands; ++band) {
    uint64_t h = mix(0x84222325cbf29ce4ULL, static_cast<uint64_t>(band));
    for (int row = 0; row < spec_.rows; ++row)
      h = mix(h, signature[static_cast<size_t>(band * spec_.rows + row)]);
    keys.push_back(h);
  }
  return keys;
}

std::vector<size_t> MinHashLsh::clusters(const std::vector<std::vector<uint64_t>>& band_keys)
{
  UnionFind sets(band_keys.size());
  // One table per band: a band key seen before joins the two documents.
  const size_t bands = band_keys.empty() ? 0 : band_keys.front().size();
  for (size_t band = 0; band < bands; ++band) {
    std::unordered_map<uint64_t, size_t> first;
    for (size_t doc = 0; doc < band_keys.size(); ++doc) {
      const auto [it, fresh] = first.emplace(band_keys[doc][band], doc);
      if (!fresh)
        sets.join(it->second, doc);
    }
  }
  std::vector<size_t> rep(band_keys.size());
  for (size_t doc = 0; doc < band_keys.size(); ++doc)
    rep[doc] = sets.find(doc);
  return rep;
}

double MinHashLsh::candidate_probability(double s, int bands, int rows)
{
  return 1.0 - std::pow(1.0 - std::pow(s, rows), bands);
}

UnionFind::UnionFind(size_t n)
    : parent_(n)
    , size_(n, 1)
{
  for (size_t i = 0; i < n; ++i)
    parent_[i] = i;
}

size_t UnionFind::find(size_t x)
{
  while (parent_[x] != x) {
    parent_[x] = parent_[parent_[x]];
    x          = parent_[x];
  }
  return x;
}

void UnionFind::join(size_t x, size_t y)
{
  x = find(x);
  y = find(y);
  if (x == y)
    return;
  // The larger set absorbs the smaller; the smaller index stays the root on ties so a cluster's
  // representative is deterministic.
  if (size_[x] < size_[y] || (size_[x] == size_[y] && y < x))
    std::swap(x, y);
  parent_[y] = x;
  size_[x] += size_[y];
}

}  // namespace llsim
