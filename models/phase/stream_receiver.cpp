#include "models/phase/stream_receiver.hpp"

#include "models/phase/transfer_plan.hpp"

#include <algorithm>

namespace sg4 = simgrid::s4u;

namespace llsim {

StreamReceiver::StreamReceiver(sg4::Host* host, std::deque<IncomingStream> streams, double chunk_B,
                               size_t max_streams, std::shared_ptr<ChunkBuffer> buffer, size_t writers,
                               TransferCounters& counters)
    : host_(host)
    , queued_(std::move(streams))
    , chunk_B_(chunk_B)
    , max_streams_(max_streams)
    , buffer_(std::move(buffer))
    , writers_(writers)
    , counters_(counters)
{
}

void StreamReceiver::admit_streams()
{
  active_.erase(std::remove_if(active_.begin(), active_.end(),
                               [](const Active& a) { return !a.comm && a.remaining_B < 0.5; }),
                active_.end());
  while (active_.size() < max_streams_ && !queued_.empty()) {
    active_.push_back({queued_.front(), queued_.front().bytes, nullptr, 0});
    queued_.pop_front();
  }
}

bool StreamReceiver::take_slot()
{
  if (slot_in_hand_) {
    slot_in_hand_ = false;
    return true;
  }
  // Only this actor takes slots, so a slot seen free is still free at acquire(). (In SimGrid
  // 3.32 acquire_timeout(0) does not return at once: a zero timeout waits like acquire().)
  if (buffer_->free_slots->would_block())
    return false;
  buffer_->free_slots->acquire();
  return true;
}

bool StreamReceiver::start_receives()
{
  for (auto& a : active_) {
    if (a.comm)
      continue;
    if (buffer_ && !take_slot())
      return false;
    a.chunk_B = chunk_bytes(chunk_B_, a.remaining_B);
    a.comm    = sg4::Comm::sendto_async(a.stream.sender, host_, static_cast<uint64_t>(a.chunk_B));
  }
  return true;
}

void StreamReceiver::on_received(Active& a)
{
  counters_.series.add(0, a.chunk_B, sg4::Engine::get_clock());
  counters_.received_B += a.chunk_B;
  if (buffer_) {
    buffer_->waiting.push_back(a.chunk_B);
    buffer_->ready->release();
  }
  a.remaining_B -= a.chunk_B;
  a.comm = nullptr;
}

void StreamReceiver::operator()()
{
  std::vector<sg4::CommPtr> pending;
  std::vector<size_t> owner;
  while (true) {
    admit_streams();
    const bool all_started = start_receives();
    pending.clear();
    owner.clear();
    for (size_t i = 0; i < active_.size(); ++i)
      if (active_[i].comm) {
        pending.push_back(active_[i].comm);
        owner.push_back(i);
      }
    if (!pending.empty()) {
      on_received(active_[owner[sg4::Comm::wait_any(pending)]]);
    } else if (!all_started) {
      buffer_->free_slots->acquire();  // nothing on the wire: wait for a disk to free a slot
      slot_in_hand_ = true;
    } else {
      break;
    }
  }
  if (buffer_) {
    buffer_->receiving_done = true;
    for (size_t w = 0; w < writers_; ++w)
      buffer_->ready->release();  // lets each writer see the end
  }
}

}  // namespace llsim
