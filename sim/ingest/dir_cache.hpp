// A client's cache of resolved directories (a dentry cache): at most `entries` directories, the
// least recently used one dropped first, each trusted for `ttl` seconds after it was resolved.
// entries 0: nothing is cached, every component of every path is looked up.
#pragma once
#include <cstddef>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>

namespace llsim {

class DirCache {
 public:
  DirCache(size_t entries, double ttl_s) : entries_(entries), ttl_s_(ttl_s) {}
  // Whether `dir` is cached and still fresh at `now` (a hit makes it the most recently used).
  bool holds(std::string_view dir, double now);
  void insert(std::string_view dir, double now);

 private:
  struct Entry {
    std::string dir;
    double resolved_s;
  };
  size_t entries_;
  double ttl_s_;
  std::list<Entry> lru_;  // most recently used first
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;
};

}  // namespace llsim
