// One disk of a receiving server of a transfer, run as a SimGrid actor: writes the server's
// received chunks (ChunkBuffer) to its disk one at a time, oldest first, and frees their buffer
// slots. Ends when the server has received everything and the buffer is empty. A disk that
// cannot hold the next chunk stops taking chunks; when every disk of the server is full the
// simulation fails (SimulationError).
#pragma once
#include "models/phase/chunk_buffer.hpp"
#include "sim/sg/platform.hpp"

#include <memory>

namespace llsim {

class ChunkWriter {
 public:
  ChunkWriter(HostDisk disk, size_t disks_of_server, std::shared_ptr<ChunkBuffer> buffer, TransferCounters& counters);
  void operator()();

 private:
  HostDisk disk_;
  size_t disks_of_server_;
  double used_B_ = 0;
  std::shared_ptr<ChunkBuffer> buffer_;
  TransferCounters& counters_;
};

}  // namespace llsim
