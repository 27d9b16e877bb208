// Weights fetched from peers (weight_source.hpp, `from: peers`): a broadcast among a phase's
// instances over the network. An instance holding the weights sends them to one peer at a time,
// host to host. A loading instance takes a holder that is free (the lowest instance number);
// when every holder is busy, or none holds them yet but one instance is reading them from the
// storage service, it waits. When none holds them and none is reading them, it reads them itself
// (it seeds). N instances starting together thus take one storage read and about log2(N) copies.
// A holder whose host fails stops being one; a copy it was sending starts over from another.
// A copy moves in pieces of `chunk` bytes, one after the other: a cancelled one stops after the
// piece under way.
#pragma once
#include "sim/serve/weights/weight_reads.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

class HostFaults;
class Platform;
class StorageService;
class WaitPoint;

class PeerWeights {
 public:
  PeerWeights(StorageService& fill, std::string path, const ReadShape& shape, std::string label);
  ~PeerWeights();
  void start(const Platform& platform, HostFaults& faults);
  std::shared_ptr<WeightLoad> load(const WeightTarget& t, std::function<void()> changed);
  // An instance that completed its load holds the weights while `serving()` holds.
  void holds(int instance, HostId host, std::function<bool()> serving);

 private:
  struct Holder {
    int instance;
    HostId host;
    std::function<bool()> serving;
    bool sending = false;
  };
  class Load;
  void fetch(const std::shared_ptr<Load>& load, const WeightTarget& t);  // the loading actor's body
  bool seed(const std::shared_ptr<Load>& load, const WeightTarget& t);   // false: cancelled first
  void changed();  // a holder appeared or is free, or a seeder stopped

  StorageService& fill_;
  std::string path_, label_;
  ReadShape shape_;
  const Platform* platform_ = nullptr;
  HostFaults* faults_       = nullptr;
  std::vector<Holder> holders_;
  bool seeding_ = false;
  std::unique_ptr<WaitPoint> changed_;
  uint64_t generation_ = 0;
};

}  // namespace llsim
