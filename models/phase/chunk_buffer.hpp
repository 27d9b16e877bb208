// The memory of a receiving server between its network side and its disks: chunks received and
// not yet written, plus slots reserved by chunks still on the wire. Shared by the server's
// stream receiver actor and its disk writer actors, which synchronise through two semaphores
// (SimGrid actors never run concurrently, so the plain fields need no lock).
#pragma once
#include "sim/run/time_series.hpp"

#include <simgrid/s4u.hpp>

#include <deque>

namespace llsim {

// Counters shared by all servers of one transfer phase.
struct TransferCounters {
  TimeSeries series;  // columns: bytes_received, bytes_written
  double received_B = 0;
  double written_B  = 0;
};

struct ChunkBuffer {
  explicit ChunkBuffer(size_t slots) : free_slots(simgrid::s4u::Semaphore::create(static_cast<unsigned>(slots))) {}

  // One token per slot not held by a chunk (a chunk holds one from the start of its receive
  // until it is written).
  simgrid::s4u::SemaphorePtr free_slots;
  // One token per chunk in `waiting`, plus one per writer once receiving is done.
  simgrid::s4u::SemaphorePtr ready = simgrid::s4u::Semaphore::create(0);
  std::deque<double> waiting;  // received chunks, oldest first
  bool receiving_done = false;
  size_t full_disks   = 0;
};

}  // namespace llsim
