#include "models/phase/transfer_plan.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

std::vector<TransferStream> plan_streams(size_t senders, size_t streams_per_sender, size_t receivers,
                                         double bytes_per_sender)
{
  std::vector<TransferStream> streams;
  streams.reserve(senders * streams_per_sender);
  const double bytes = bytes_per_sender / static_cast<double>(streams_per_sender);
  for (size_t k = 0; k < streams_per_sender; ++k)
    for (size_t s = 0; s < senders; ++s)
      streams.push_back({s, streams.size() % receivers, bytes});
  return streams;
}

double chunk_bytes(double chunk, double remaining)
{
  return std::min(chunk, std::round(remaining));
}

}  // namespace llsim
