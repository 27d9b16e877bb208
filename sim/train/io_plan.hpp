// What a checkpoint write (or read) moves: which nodes, how many bytes, to which targets (OSTs)
// of the storage service. Produced by a CheckpointLayout, carried out by the training runtime
// through the forwarding and storage services (checkpoint_io.hpp). Which forwarding node a
// writer goes through is the forwarding service's mapping, not the layout's.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace llsim {

struct IoPiece {
  size_t target;  // of the storage service
  double bytes;
  int64_t files;  // files created (opened, on read) before this piece's bytes move
};

struct IoWriter {
  int64_t node;  // index of the compute node in its group
  double bytes;
  int64_t processes;  // its I/O processes, each moving at most the system's process_Bps
  std::vector<IoPiece> pieces;
};

struct IoPlan {
  std::vector<IoWriter> writers;
  size_t partner_offset = 1;  // node-local levels: writer w's copies go to writer w + offset
  size_t partner_of(size_t w) const { return (w + partner_offset) % writers.size(); }
  double total_B() const;
  int64_t files() const;
};

// The storage a layout plans for.
struct IoSystem {
  int64_t nodes          = 0;
  size_t targets         = 0;
  double stripe_B        = 1048576;  // the storage service's stripe unit
  double process_Bps     = 0;        // what one I/O process can drive
  int64_t ranks_per_node = 1;        // a node's ranks write together, as one writer
};

}  // namespace llsim
