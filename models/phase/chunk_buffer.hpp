// The memory of a receiving server between its network side and its disks: chunks received and
// not yet written, plus slots reserved by chunks still on the wire. Shared by the server's
// stream receiver actor and its disk writer actors (SimGrid actors never run concurrently; the
// mutex only serves the condition variables).
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
  explicit ChunkBuffer(size_t slots) : slots(slots) {}

  const size_t slots;
  size_t reserved = 0;         // chunks on the wire or waiting for a disk
  std::deque<double> waiting;  // received chunks, oldest first
  bool receiving_done = false;
  size_t full_disks   = 0;
  simgrid::s4u::MutexPtr mutex                   = simgrid::s4u::Mutex::create();
  simgrid::s4u::ConditionVariablePtr chunk_ready = simgrid::s4u::ConditionVariable::create();
  simgrid::s4u::ConditionVariablePtr slot_freed  = simgrid::s4u::ConditionVariable::create();
};

}  // namespace llsim
