// MinHash-LSH near-duplicate detection, as datatrove and text-dedup run it (MinHash after
// Broder 1997): a document's tokens are cut into `shingle`-token windows, each hashed; K = b·r
// hash functions each keep their minimum over the shingles (the signature, an unbiased estimate
// of Jaccard similarity component by component); the signature is cut into b bands of r rows,
// each hashed to a band key; two documents sharing a band key are a candidate pair, and
// union-find over candidate pairs gives the clusters, of which one document each survives.
// A pair of similarity s becomes a candidate with probability 1 - (1 - s^r)^b.
// Pure logic: the preprocess phase uses the formula and the costs; tests run the real thing.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace llsim {

struct MinHashSpec {
  int shingle   = 5;   // tokens per shingle (datatrove: 5-grams)
  int bands     = 14;  // b (datatrove: 14)
  int rows      = 8;   // r (datatrove: 8)
  uint64_t seed = 1;
};

class MinHashLsh {
 public:
  explicit MinHashLsh(const MinHashSpec& spec);

  int hashes() const { return spec_.bands * spec_.rows; }  // K
  // Hashes of a document's shingles (windows of `shingle` tokens; a shorter document is one).
  std::vector<uint64_t> shingles(const std::vector<uint32_t>& tokens) const;
  // K minima over the shingles' hashes.
  std::vector<uint64_t> signature(const std::vector<uint64_t>& shingles) const;
  // b band keys (a band's rows hashed together with the band's index).
  std::vector<uint64_t> band_keys(const std::vector<uint64_t>& signature) const;
  // For each document, the representative of its cluster (one of its members, the same for
  // all): documents sharing a band key are joined.
  static std::vector<size_t> clusters(const std::vector<std::vector<uint64_t>>& band_keys);

  // Probability that two documents of Jaccard similarity s share at least one band.
  static double candidate_probability(double s, int bands, int rows);

 private:
  MinHashSpec spec_;
  std::vector<uint64_t> a_, b_;  // the K hash functions: (a x + b) mod 2^61 - 1
};

// Disjoint sets with path halving and union by size.
class UnionFind {
 public:
  explicit UnionFind(size_t n);
  size_t find(size_t x);
  void join(size_t x, size_t y);

 private:
  std::vector<size_t> parent_, size_;
};

}  // namespace llsim
