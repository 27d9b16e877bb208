#include "sim/svc/disk_queue.hpp"

#include "sim/sg/wait_point.hpp"

#include <algorithm>

namespace llsim {

DiskQueue::DiskQueue() : changed_(std::make_unique<WaitPoint>()) {}
DiskQueue::~DiskQueue() = default;

bool DiskQueue::acquire(double deadline)
{
  const uint64_t ticket = next_ticket_++;
  waiting_.push_back(ticket);
  const bool mine = changed_->wait_until([&] { return !busy_ && waiting_.front() == ticket; }, deadline);
  if (!mine) {
    waiting_.erase(std::find(waiting_.begin(), waiting_.end(), ticket));
    changed_->notify_all();  // it may have been first in line
    return false;
  }
  waiting_.pop_front();
  busy_ = true;
  return true;
}

void DiskQueue::release()
{
  busy_ = false;
  changed_->notify_all();
}

}  // namespace llsim
