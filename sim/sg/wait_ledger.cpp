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

std::vector<std::map<std::string, double>>& ledger()
{
  static std::vector<std::map<std::string, double>> per_phase;
  return per_phase;
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

void adopt_phase_tag(int tag)
{
  set_phase_tag(tag);
}

void forget_phase_tag()
{
  tags().erase(self_pid());
}

void charge_wait(const std::string& resource, double seconds)
{
  charge_wait_to(phase_tag(), resource, seconds);
}

void charge_wait_to(int tag, const std::string& resource, double seconds)
{
  if (tag == kNoPhase || !(seconds > 0))
    return;
  auto& all = ledger();
  if (static_cast<size_t>(tag) >= all.size())
    all.resize(static_cast<size_t>(tag) + 1);
  all[static_cast<size_t>(tag)][resource] += seconds;
}

std::map<std::string, double> phase_waits(int tag)
{
  const auto& all = ledger();
  return tag >= 0 && static_cast<size_t>(tag) < all.size() ? all[static_cast<size_t>(tag)]
                                                           : std::map<std::string, double>{};
}

void clear_wait_ledger()
{
  ledger().clear();
  tags().clear();
}

}  // namespace llsim
