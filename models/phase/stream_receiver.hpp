// The network side of one receiving server of a transfer, run as a SimGrid actor on its host.
// It serves at most `max_streams` streams at once (the rest queue, as at a server with a bounded
// thread pool) and pulls each stream chunk by chunk from its sender. With disks, a chunk may only
// be pulled while the server's ChunkBuffer has a free slot, so slow disks hold the network back;
// without disks the server only receives.
//
// Disk writes are issued by other actors (chunk_writer.hpp): SimGrid 3.32 keeps every I/O in its
// issuing actor's activity list until that actor ends, and every communication that actor waits
// for scans that list, which made one actor doing both quadratic in the number of chunks.
#pragma once
#include "models/phase/chunk_buffer.hpp"

#include <simgrid/s4u.hpp>

#include <deque>
#include <memory>
#include <vector>

namespace llsim {

struct IncomingStream {
  simgrid::s4u::Host* sender;
  double bytes;
};

class StreamReceiver {
 public:
  // `buffer` is null for a server without disks; `writers` is its number of disk writers.
  StreamReceiver(simgrid::s4u::Host* host, std::deque<IncomingStream> streams, double chunk_B, size_t max_streams,
                 std::shared_ptr<ChunkBuffer> buffer, size_t writers, TransferCounters& counters);
  void operator()();  // returns when every stream is received

 private:
  struct Active {
    IncomingStream stream;
    double remaining_B;
    simgrid::s4u::CommPtr comm;  // the chunk on the wire, or null
    double chunk_B;
  };

  void admit_streams();
  bool start_receives();  // false when a stream waits for a buffer slot
  void on_received(Active& a);
  bool take_slot();  // without blocking

  simgrid::s4u::Host* host_;
  std::deque<IncomingStream> queued_;
  std::vector<Active> active_;
  double chunk_B_;
  size_t max_streams_;
  std::shared_ptr<ChunkBuffer> buffer_;
  size_t writers_;
  bool slot_in_hand_ = false;  // acquired while waiting, not yet used
  TransferCounters& counters_;
};

}  // namespace llsim
