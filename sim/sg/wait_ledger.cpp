#include "sim/sg/wait_ledger.hpp"

#include <simgrid/s4u/Actor.hpp>

#include <unordered_map>
#include <vector>

namespace llsim {

namespace {

std::unordered_map<long, int>& tags()
{
  static std::unordered_map<long, int> map;  // actor pid -> phase tag
  return map;
}

std::vector<std::vector<double>>& ledger()
{
  static std::vector<std::vector<double>> per_phase;  // seconds by resource number
  return per_phase;
}

std::vector<std::string>& resource_names()
{
  static std::vector<std::string> names;
  return names;
}

long self_pid()
{
  const simgrid::s4u::Actor* self = simgrid::s4u::Actor::self();
  return self == nullptr ? -1 : static_cast<long>(self->get_pid());
}

}  // namespace

int phase_tag()
{
  const auto it = tags().find(self_pid());
  return it == tags().end() ? kNoPhase : it->second;
}

void set_phase_tag(int tag)
{
  const long pid = self_pid();
  if (pid < 0)
    return;
  if (tag == kNoPhase)
    tags().erase(pid);
  else
    tags()[pid] = tag;
}

void forget_phase_tag()
{
  tags().erase(self_pid());
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
  auto& all = ledger();
  if (static_cast<size_t>(tag) >= all.size())
    all.resize(static_cast<size_t>(tag) + 1);
  auto& mine = all[static_cast<size_t>(tag)];
  if (resource >= mine.size())
    mine.resize(resource + 1, 0);
  mine[resource] += seconds;
}

std::map<std::string, double> phase_waits(int tag)
{
  std::map<std::string, double> out;
  const auto& all = ledger();
  if (tag < 0 || static_cast<size_t>(tag) >= all.size())
    return out;
  const auto& mine = all[static_cast<size_t>(tag)];
  for (size_t r = 0; r < mine.size(); ++r)
    if (mine[r] > 0)
      out[resource_names()[r]] += mine[r];
  return out;
}

void clear_wait_ledger()
{
  ledger().clear();
  tags().clear();
}

}  // namespace llsim
