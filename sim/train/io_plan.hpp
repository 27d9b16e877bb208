// What a checkpoint write (or read) moves: which nodes, how many bytes, through which forwarding
// node to which OST. Produced by a CheckpointLayout, executed by the I/O path simulator.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace llsim {

struct IoPiece {
  size_t ost;         // index over all OSTs (storage hosts' disks, host-major)
  size_t forwarding;  // forwarding node index
  double bytes;
  int64_t creates;    // files created (opened, on read) at the metadata server before this piece
};

struct IoWriter {
  int64_t node;          // compute node index
  double bytes;
  double rate_cap_Bps;   // its I/O processes' combined client-side limit
  std::vector<IoPiece> pieces;
};

struct IoPlan {
  std::vector<IoWriter> writers;
  double total_B() const;
  int64_t files() const;
};

// The I/O system a layout plans for.
struct IoSystem {
  int64_t nodes        = 0;
  size_t forwarding    = 0;
  size_t osts          = 0;
  int64_t ratio        = 512;    // compute nodes per forwarding node under static mapping
  bool balanced_mapping = false;  // forwarding-node reallocation: writers spread over all of them
  double process_Bps   = 0;      // what one I/O process can drive
  // The forwarding node serving `node` (static: node / ratio; balanced: writer order mod count).
  size_t home_forwarding(int64_t node, size_t writer_index) const;
};

}  // namespace llsim
