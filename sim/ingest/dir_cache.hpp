// A client's cache of resolved directories (a dentry cache): at most `entries` directories, the
// least recently used one dropped first, each trusted for `ttl` seconds after it was resolved.
// entries 0: nothing is cached, every component of every path is looked up.
// Directories are known by a 64-bit hash of their path (meta_path.hpp): two directories would
// have to collide for one to be taken for the other (odds about n^2 / 2^65 for n cached paths).
#pragma once
#include "sim/core/hash_index.hpp"

#include <cstddef>
#include <cstdint>
#include <list>

namespace llsim {

class DirCache {
 public:
  DirCache(size_t entries, double ttl_s)
      : entries_(entries)
      , ttl_s_(ttl_s)
  {}
  // Whether the directory is cached and still fresh at `now` (a hit makes it the most recently
  // used).
  bool holds(uint64_t dir_hash, double now);
  void insert(uint64_t dir_hash, double now);

 private:
  struct Entry {
    uint64_t dir;
    double resolved_s;
  };
  size_t entries_;
  double ttl_s_;
  std::list<Entry> lru_;  // most recently used first
  HashIndex<std::list<Entry>::iterator> index_;
};

}  // namespace llsim
