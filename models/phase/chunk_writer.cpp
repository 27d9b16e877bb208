#include "models/phase/chunk_writer.hpp"

#include "sim/core/errors.hpp"


namespace sg4 = simgrid::s4u;

namespace llsim {

ChunkWriter::ChunkWriter(HostDisk disk, size_t disks_of_server, std::shared_ptr<ChunkBuffer> buffer,
                         TransferCounters& counters)
    : disk_(disk), disks_of_server_(disks_of_server), buffer_(std::move(buffer)), counters_(counters)
{
}

void ChunkWriter::operator()()
{
  while (true) {
    buffer_->ready->acquire();
    if (buffer_->waiting.empty())
      return;  // the end token: everything received and written
    const double chunk = buffer_->waiting.front();
    if (used_B_ + chunk > disk_.capacity_B) {
      if (++buffer_->full_disks == disks_of_server_)
        throw SimulationError("every disk of host '" + disk_.disk->get_host()->get_name() + "' is full (" +
                              std::to_string(disks_of_server_) + " disks; the next chunk of " +
                              std::to_string(static_cast<long long>(chunk)) + " B does not fit)");
      buffer_->ready->release();  // another disk may still take the chunk
      return;
    }
    buffer_->waiting.pop_front();
    used_B_ += chunk;
    disk_.disk->write(static_cast<uint64_t>(chunk));
    counters_.series.add(1, chunk, sg4::Engine::get_clock());
    counters_.written_B += chunk;
    buffer_->free_slots->release();
  }
}

}  // namespace llsim
