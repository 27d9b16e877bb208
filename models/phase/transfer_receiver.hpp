// One receiving server of a transfer, run as a SimGrid actor on its host. It accepts at most
// `max_streams` streams at once (the rest queue, as at a server with a bounded thread pool) and
// pulls each stream chunk by chunk across the network. Received chunks wait in a buffer of
// `buffer_chunks` chunks and are written by the host's disks, one chunk per disk at a time, so
// network and disks overlap like a pipelined server; a full buffer holds the network back.
// A host without disks only receives.
#pragma once
#include "sim/run/time_series.hpp"
#include "sim/sg/platform.hpp"

#include <simgrid/s4u.hpp>

#include <deque>
#include <vector>

namespace llsim {

struct ReceiverConfig {
  double chunk_B       = 0;
  size_t max_streams   = 1;
  size_t buffer_chunks = 1;
};

struct IncomingStream {
  simgrid::s4u::Host* sender;
  double bytes;
};

// Counters shared by all receivers of one phase (actors never run concurrently).
struct TransferCounters {
  TimeSeries series;  // columns: bytes_received, bytes_written
  double received_B = 0;
  double written_B  = 0;
};

class TransferReceiver {
 public:
  TransferReceiver(simgrid::s4u::Host* host, std::vector<HostDisk> disks, std::deque<IncomingStream> streams,
                   ReceiverConfig config, TransferCounters& counters);
  void operator()();  // the actor's body: returns when every stream is received and written

 private:
  struct Active {
    IncomingStream stream;
    double remaining_B;
    simgrid::s4u::CommPtr comm;  // the chunk in flight, or null
    double chunk_B = 0;
  };
  struct DiskSlot {
    HostDisk disk;
    double used_B = 0;
    simgrid::s4u::IoPtr io;  // the write in flight, or null
    double chunk_B = 0;
  };

  void admit_streams();
  void start_receives();
  void start_writes();
  void on_received(Active& a);
  void on_written(DiskSlot& d);

  simgrid::s4u::Host* host_;
  std::vector<DiskSlot> disks_;
  std::deque<IncomingStream> queued_;
  std::vector<Active> active_;
  std::deque<double> buffered_;  // chunks received, not yet written
  ReceiverConfig config_;
  TransferCounters& counters_;
};

}  // namespace llsim
