#include "models/phase/transfer_receiver.hpp"

#include "sim/core/errors.hpp"

#include <algorithm>
#include <cmath>

namespace sg4 = simgrid::s4u;

namespace llsim {

TransferReceiver::TransferReceiver(sg4::Host* host, std::vector<HostDisk> disks, std::deque<IncomingStream> streams,
                                   ReceiverConfig config, TransferCounters& counters)
    : host_(host), queued_(std::move(streams)), config_(config), counters_(counters)
{
  for (const auto& d : disks)
    disks_.push_back({d, 0, nullptr, 0});
}

void TransferReceiver::admit_streams()
{
  while (active_.size() < config_.max_streams && !queued_.empty()) {
    active_.push_back({queued_.front(), queued_.front().bytes, nullptr});
    queued_.pop_front();
  }
}

void TransferReceiver::start_receives()
{
  size_t in_flight = 0;
  for (const auto& a : active_)
    in_flight += a.comm ? 1 : 0;
  for (auto& a : active_) {
    if (a.comm)
      continue;
    // Chunks on the wire or in the buffer hold buffer space; without disks nothing is buffered.
    if (!disks_.empty() && buffered_.size() + in_flight >= config_.buffer_chunks)
      return;
    a.chunk_B = std::min(config_.chunk_B, std::round(a.remaining_B));
    a.comm    = sg4::Comm::sendto_async(a.stream.sender, host_, static_cast<uint64_t>(a.chunk_B));
    ++in_flight;
  }
}

void TransferReceiver::start_writes()
{
  for (auto& d : disks_) {
    if (d.io || buffered_.empty())
      continue;
    const double chunk = buffered_.front();
    if (d.used_B + chunk > d.disk.capacity_B) {
      // This disk is full: another disk of the host may still take the chunk.
      const bool any_room = std::any_of(disks_.begin(), disks_.end(),
                                        [chunk](const DiskSlot& o) { return o.used_B + chunk <= o.disk.capacity_B; });
      if (!any_room)
        throw SimulationError("the disks of host '" + host_->get_name() + "' are full (" +
                              std::to_string(disks_.size()) + " disks; a transfer chunk of " +
                              std::to_string(static_cast<long long>(chunk)) + " B does not fit)");
      continue;
    }
    buffered_.pop_front();
    d.chunk_B = chunk;
    d.used_B += chunk;
    d.io = d.disk.disk->write_async(static_cast<uint64_t>(chunk));
  }
}

void TransferReceiver::on_received(Active& a)
{
  const double now = sg4::Engine::get_clock();
  counters_.series.add(0, a.chunk_B, now);
  counters_.received_B += a.chunk_B;
  if (!disks_.empty())
    buffered_.push_back(a.chunk_B);
  a.remaining_B -= a.chunk_B;
  a.comm = nullptr;
}

void TransferReceiver::on_written(DiskSlot& d)
{
  counters_.series.add(1, d.chunk_B, sg4::Engine::get_clock());
  counters_.written_B += d.chunk_B;
  d.io = nullptr;
}

void TransferReceiver::operator()()
{
  std::vector<sg4::ActivityPtr> pending;
  std::vector<size_t> owner;  // index into active_ (comms) or active_.size() + disk index (writes)
  while (true) {
    active_.erase(std::remove_if(active_.begin(), active_.end(),
                                 [](const Active& a) { return !a.comm && a.remaining_B < 0.5; }),
                  active_.end());
    admit_streams();
    start_writes();
    start_receives();
    pending.clear();
    owner.clear();
    for (size_t i = 0; i < active_.size(); ++i)
      if (active_[i].comm) {
        pending.push_back(active_[i].comm);
        owner.push_back(i);
      }
    for (size_t i = 0; i < disks_.size(); ++i)
      if (disks_[i].io) {
        pending.push_back(disks_[i].io);
        owner.push_back(active_.size() + i);
      }
    if (pending.empty())
      return;
    const ssize_t done = sg4::Activity::wait_any(pending);
    if (owner[done] < active_.size())
      on_received(active_[owner[done]]);
    else
      on_written(disks_[owner[done] - active_.size()]);
  }
}

}  // namespace llsim
