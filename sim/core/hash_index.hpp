// A map from 64-bit keys that are already well mixed (path hashes) to small values: open
// addressing with linear probing in a power-of-two table, erase by shifting back the entries that
// follow. Far fewer cache misses than std::unordered_map's buckets of nodes, which matters on paths
// taken once per simulated operation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace llsim {

template <class T>
class HashIndex {
 public:
  // The value of `key`, or null.
  T* find(uint64_t key)
  {
    if (slots_.empty())
      return nullptr;
    for (size_t i = home(key);; i = next(i)) {
      Slot& s = slots_[i];
      if (!s.used)
        return nullptr;
      if (s.key == key)
        return &s.value;
    }
  }
  // The value of `key`, value-initialised when it was absent.
  T& operator[](uint64_t key)
  {
    if (T* v = find(key))
      return *v;
    if (2 * (size_ + 1) > slots_.size())
      grow();
    size_t i = home(key);
    while (slots_[i].used)
      i = next(i);
    slots_[i] = {key, T{}, true};
    ++size_;
    return slots_[i].value;
  }
  void erase(uint64_t key)
  {
    if (slots_.empty())
      return;
    size_t i = home(key);
    while (slots_[i].used && slots_[i].key != key)
      i = next(i);
    if (!slots_[i].used)
      return;
    // Shift back every entry after the hole that may sit in it (linear probing's deletion).
    for (size_t j = next(i);; j = next(j)) {
      if (!slots_[j].used)
        break;
      const size_t h = home(slots_[j].key);
      if ((j > i && (h <= i || h > j)) || (j < i && (h <= i && h > j))) {
        slots_[i] = slots_[j];
        i         = j;
      }
    }
    slots_[i].used = false;
    --size_;
  }
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t key = 0;
    T value{};
    bool used = false;
  };
  size_t home(uint64_t key) const { return static_cast<size_t>((key * 0x9e3779b97f4a7c15ULL) >> shift_); }
  size_t next(size_t i) const { return (i + 1) & (slots_.size() - 1); }
  void grow()
  {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : 2 * old.size(), Slot{});
    shift_ = 64;
    for (size_t n = slots_.size(); n > 1; n >>= 1)
      --shift_;
    size_ = 0;
    for (const Slot& s : old)
      if (s.used)
        (*this)[s.key] = s.value;
  }

  std::vector<Slot> slots_;
  size_t size_    = 0;
  unsigned shift_ = 64;
};

}  // namespace llsim
