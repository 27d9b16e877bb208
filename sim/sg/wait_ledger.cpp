#include "sim/sg/wait_ledger.hpp"

#include <simgrid/s4u/Actor.hpp>

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace llsim {

namespace {

// An actor's tag rides on the actor itself, in an extension slot of its own (no deleter: the slot
// holds a number, not an object), as tag - kNoPhase: an untagged actor's empty slot reads kNoPhase.
size_t tag_slot()
{
  static const size_t slot = simgrid::s4u::Actor::extension_create(std::function<void(void*)>());
  return slot;
}

std::vector<std::vector<double>>& ledger()
{
  static std::vector<std::vector<double>> per_phase;  // seconds by resource number
  return per_phase;
}

std::map<int, std::map<std::string, double>>& turned_away()
{
  static std::map<int, std::map<std::string, double>> per_phase;  // requests by reason
  return per_phase;
}

std::vector<std::string>& resource_names()
{
  static std::vector<std::string> names;
  return names;
}

// Where a tag's seconds are: phase i at 2i, its background at 2i + 1.
size_t ledger_slot(int tag)
{
  return tag >= 0 ? 2 * static_cast<size_t>(tag) : 2 * static_cast<size_t>(-2 - tag) + 1;
}

}  // namespace

int phase_tag()
{
  const simgrid::s4u::Actor* self = simgrid::s4u::Actor::self();
  if (self == nullptr)
    return kNoPhase;
  return static_cast<int>(reinterpret_cast<intptr_t>(self->extension(tag_slot()))) + kNoPhase;
}

int background_tag(int tag)
{
  return tag >= 0 ? -2 - tag : tag;
}

int phase_of_tag(int tag)
{
  return tag >= kNoPhase ? tag : -2 - tag;
}

BackgroundScope::BackgroundScope()
    : tag_(phase_tag())
{
  set_phase_tag(background_tag(tag_));
}

BackgroundScope::~BackgroundScope()
{
  set_phase_tag(tag_);
}

void set_phase_tag(int tag)
{
  if (simgrid::s4u::Actor* self = simgrid::s4u::Actor::self())
    self->extension_set(tag_slot(), reinterpret_cast<void*>(static_cast<intptr_t>(tag - kNoPhase)), false);
}

WaitResource wait_resource(const std::string& name)
{
  static std::unordered_map<std::string, WaitResource> numbers;
  const auto [it, added] = numbers.emplace(name, resource_names().size());
  if (added)
    resource_names().push_back(name);
  return it->second;
}

void charge_wait(WaitResource resource, double seconds)
{
  if (seconds > 0)
    charge_wait_to(phase_tag(), resource, seconds);
}

void charge_wait_to(int tag, WaitResource resource, double seconds)
{
  if (tag == kNoPhase || !(seconds > 0))
    return;
  auto& all         = ledger();
  const size_t slot = ledger_slot(tag);
  if (slot >= all.size())
    all.resize(slot + 1);
  auto& mine = all[slot];
  if (resource >= mine.size())
    mine.resize(resource + 1, 0);
  mine[resource] += seconds;
}

std::map<std::string, double> phase_waits(int tag)
{
  std::map<std::string, double> out;
  const auto& all = ledger();
  if (tag == kNoPhase || ledger_slot(tag) >= all.size())
    return out;
  const auto& mine = all[ledger_slot(tag)];
  for (size_t r = 0; r < mine.size(); ++r)
    if (mine[r] > 0)
      out[resource_names()[r]] += mine[r];
  return out;
}

void count_turned_away(const std::string& reason)
{
  if (const int tag = phase_of_tag(phase_tag()); tag != kNoPhase)
    turned_away()[tag][reason] += 1;
}

std::map<std::string, double> phase_turned_away(int tag)
{
  const auto it = turned_away().find(tag);
  return it == turned_away().end() ? std::map<std::string, double>{} : it->second;
}

void clear_wait_ledger()
{
  ledger().clear();
  turned_away().clear();
}

}  // namespace llsim
