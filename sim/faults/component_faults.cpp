#include "sim/faults/component_faults.hpp"

#include "sim/core/errors.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace llsim {

namespace {

constexpr size_t kMaxRepairsInARow = 1000000;

}  // namespace

ComponentFaults::ComponentFaults(std::vector<ComponentSpec> components, uint64_t key, size_t hosts)
    : components_(std::move(components))
    , units_(hosts)
    , next_k_(hosts, 0)
{
  for (size_t c = 0; c < components_.size(); ++c)
    component_keys_.push_back(Rng::keyed(key, c).bits());
}

std::vector<ComponentFaults::Unit> ComponentFaults::units_of(size_t host) const
{
  std::vector<Unit> units;
  for (size_t c = 0; c < components_.size(); ++c) {
    const ComponentSpec& spec = components_[c];
    const uint64_t group      = host / static_cast<uint64_t>(spec.shared_by);
    for (int64_t copy = 0; copy < spec.count; ++copy) {
      const uint64_t unit = group * static_cast<uint64_t>(spec.count) + static_cast<uint64_t>(copy);
      Unit u{c, Rng::keyed(component_keys_[c], unit).bits(), 0, Outage{0, 0, static_cast<uint32_t>(c)}};
      advance(u);
      units.push_back(u);
    }
  }
  return units;
}

void ComponentFaults::advance(Unit& u) const
{
  const ComponentSpec& spec = components_[u.component];
  Rng rng                   = Rng::keyed(u.stream, u.drawn++);
  u.next.down_s             = u.next.up_s + spec.uptime->sample(rng);
  u.next.up_s               = u.next.down_s + spec.repair->sample(rng);
}

Outage ComponentFaults::outage(size_t index, size_t k)
{
  if (k != next_k_[index])
    throw std::logic_error("component faults: outage " + std::to_string(k) + " of host " + std::to_string(index) +
                           " asked out of order");
  next_k_[index] += 1;
  auto& units = units_[index];
  if (units.empty())
    units = units_of(index);
  // Every unit's pending outage starts after the host's previous outage ended (the merge below
  // keeps it so), so the earliest of them starts the host's next outage.
  const auto first = std::min_element(units.begin(), units.end(), [](const Unit& a, const Unit& b) {
    return a.next.down_s < b.next.down_s || (a.next.down_s == b.next.down_s && a.component < b.component);
  });
  if (first == units.end())
    return {};
  Outage merged = first->next;
  size_t draws  = 0;
  for (bool grew = true; grew;) {
    grew = false;
    for (Unit& u : units)
      while (u.next.down_s <= merged.up_s) {
        if (u.next.up_s > merged.up_s) {
          merged.up_s = u.next.up_s;
          grew        = true;
        }
        advance(u);
        if (++draws > kMaxRepairsInARow)
          throw SimulationError("fault model components: host " + std::to_string(index) + " stays down through " +
                                "more than a million repairs in a row: its components fail again before they "
                                "are repaired (up times too short for the repair times)");
      }
  }
  return merged;
}

double ComponentFaults::host_rate() const
{
  double rate = 0;
  for (const ComponentSpec& c : components_)
    rate += static_cast<double>(c.count) / c.uptime->mean();
  return rate;
}

double ComponentFaults::set_rate(size_t first, size_t count) const
{
  if (count == 0)
    return 0;
  double rate = 0;
  for (const ComponentSpec& c : components_) {
    const size_t per   = static_cast<size_t>(c.shared_by);
    const size_t units = (first + count - 1) / per - first / per + 1;
    rate += static_cast<double>(units) * static_cast<double>(c.count) / c.uptime->mean();
  }
  return rate;
}

std::vector<FaultCause> ComponentFaults::causes() const
{
  std::vector<FaultCause> out;
  for (const ComponentSpec& c : components_)
    out.push_back(c.cause);
  return out;
}

}  // namespace llsim
