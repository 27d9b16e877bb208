// Which streams a transfer consists of and which receiver serves each: plain decision logic,
// no SimGrid, so it is unit-tested directly.
#pragma once
#include <cstddef>
#include <vector>

namespace llsim {

struct TransferStream {
  size_t sender;    // index in the sending group
  size_t receiver;  // index in the receiving group
  double bytes;
};

// Every sender splits `bytes_per_sender` into `streams_per_sender` equal streams. Streams are
// dealt to receivers round-robin in rounds, as if all senders opened their streams at once: the
// first stream of every sender, then the second of every sender, and so on (the n-th stream
// dealt goes to receiver n mod receivers). Each receiver gets the same number of streams, give or
// take one, and queues them in that order, so no sender waits behind another's whole batch.
std::vector<TransferStream> plan_streams(size_t senders, size_t streams_per_sender, size_t receivers,
                                         double bytes_per_sender);

// Size of the next chunk of a stream with `remaining` bytes left: whole bytes, at most `chunk`.
double chunk_bytes(double chunk, double remaining);

}  // namespace llsim
