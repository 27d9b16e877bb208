// Weights cached in a memory_pool service (weight_source.hpp, `from: <memory_pool>`), as a
// pooled host-memory tier in front of the file system: the model's weight bytes in pieces of
// `chunk` bytes, keyed weights/<path>/<bytes>/<chunk>/<piece>, each on the pool server its key
// hashes to. The pool is on other hosts than the instances' (weight_source.cpp refuses it).
// - A load whose pieces the pool all holds gets them, in_flight x ranks at a time, over the
//   network.
// - A load that finds one missing (never put, evicted by the pool's policy, lost with its
//   server), or loses one during its gets, reads the whole weights from `fill_from` instead;
//   once that read is complete, the instance puts the pieces into the pool in the background,
//   in_flight x ranks at a time, unless another instance is filling it already (a piece the pool
//   has is a use of it, not a transfer). A fill that cannot complete (a put rejected, the
//   filler's host failed, the phase ended) drops the pieces: an incomplete set is of no use.
//   The pieces are ordinary blocks: the pool's eviction policy may drop them.
#pragma once
#include "sim/serve/weights/weight_reads.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace llsim {

class HostFaults;
class MemoryPool;
class Platform;
class StorageService;

class PoolWeights {
 public:
  PoolWeights(MemoryPool& pool, StorageService& fill, std::string path, const ReadShape& shape, std::string label);
  ~PoolWeights();
  void start(const Platform& platform, HostFaults& faults);
  std::shared_ptr<WeightLoad> load(const WeightTarget& t, std::function<void()> changed);
  void stop() { stopped_ = true; }  // the phase ended: a fill under way stops

 private:
  class Load;
  struct Pieces;
  void fetch(const std::shared_ptr<Load>& load, const WeightTarget& t);  // the loading actor's body
  // Every piece, `workers` at a time from `t.host`, put or got; false when one failed.
  bool move_pieces(const WeightTarget& t, bool put, const std::function<bool()>& stop);
  bool pool_holds_all(double weight_B) const;
  void fill(const WeightTarget& t);  // puts the pieces from the host that just read them
  std::string key(size_t piece, double weight_B) const;
  size_t pieces(double weight_B) const;
  double piece_B(size_t piece, double weight_B) const;

  MemoryPool& pool_;
  StorageService& fill_;
  std::string path_, label_;
  ReadShape shape_;
  const Platform* platform_ = nullptr;
  HostFaults* faults_       = nullptr;
  bool filling_             = false;
  bool stopped_             = false;
};

}  // namespace llsim
