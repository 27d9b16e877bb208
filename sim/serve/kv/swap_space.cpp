#include "sim/serve/kv/swap_space.hpp"

#include <algorithm>

namespace llsim {

SwapSpace::SwapSpace(int64_t capacity)
    : capacity_(capacity)
    , free_(capacity)
{}

int64_t SwapSpace::blocks_of(int64_t id) const
{
  const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  return it != ids_.end() && *it == id ? blocks_[static_cast<size_t>(it - ids_.begin())] : 0;
}

void SwapSpace::put(int64_t id, int64_t blocks)
{
  const auto at = std::upper_bound(ids_.begin(), ids_.end(), id) - ids_.begin();
  ids_.insert(ids_.begin() + at, id);
  blocks_.insert(blocks_.begin() + at, blocks);
  free_ -= blocks;
  moves_.push_back({id, blocks, true});
}

int64_t SwapSpace::take_front()
{
  const int64_t id = ids_.front(), blocks = blocks_.front();
  ids_.erase(ids_.begin());
  blocks_.erase(blocks_.begin());
  free_ += blocks;
  moves_.push_back({id, blocks, false});
  return blocks;
}

void SwapSpace::drop(int64_t id)
{
  const auto it = std::find(ids_.begin(), ids_.end(), id);
  if (it == ids_.end())
    return;
  const auto k = it - ids_.begin();
  free_ += blocks_[static_cast<size_t>(k)];
  ids_.erase(it);
  blocks_.erase(blocks_.begin() + k);
}

void SwapSpace::reset()
{
  ids_.clear();
  blocks_.clear();
  free_ = capacity_;
}

int64_t SwapSpace::moved_blocks() const
{
  int64_t blocks = 0;
  for (const SwapMove& m : moves_)
    blocks += m.blocks;
  return blocks;
}

}  // namespace llsim
