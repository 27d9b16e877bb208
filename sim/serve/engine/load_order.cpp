#include "sim/serve/engine/load_order.hpp"

namespace llsim {

void LoadOrder::add(int64_t load)
{
  order_.insert({load, static_cast<int>(loads_.size())});
  loads_.push_back(load);
}

void LoadOrder::set(int index, int64_t load)
{
  int64_t& held = loads_[static_cast<size_t>(index)];
  if (held == load)
    return;
  auto node    = order_.extract({held, index});  // reused: no allocation per change
  node.value() = {load, index};
  order_.insert(std::move(node));
  held = load;
}

}  // namespace llsim
