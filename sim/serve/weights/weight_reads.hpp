// A weight load read from a storage service's file set (weight_source.hpp): the target's ranks
// read their slices of each file of its part together, one sequential stream per file, all files
// at once; the ranks' `in_flight` requests of `chunk` bytes each (in_flight x ranks in all) are
// shared out over the files, at least one per file.
#pragma once
#include "sim/serve/weights/weight_source.hpp"

#include <functional>
#include <memory>
#include <string>

namespace llsim {

class StorageService;

struct ReadShape {
  double chunk_B   = 256.0 * 1024 * 1024;
  size_t in_flight = 4;
};

// Starts reading; `finished(true)` runs when every byte is there, `finished(false)` when the load
// is cancelled. A set that is missing, or smaller than the part to read, is a SimulationError
// naming `path`; `source` names the service in the load's record.
std::shared_ptr<WeightLoad> read_weights(StorageService& storage, const std::string& path, const std::string& source,
                                         const WeightTarget& t, const ReadShape& shape,
                                         std::function<void(bool over)> finished);

}  // namespace llsim
