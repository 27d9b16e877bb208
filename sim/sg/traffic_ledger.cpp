#include "sim/sg/traffic_ledger.hpp"

#include "sim/sg/platform.hpp"
#include "sim/sg/wait_ledger.hpp"

#include <vector>

namespace llsim {

namespace {

using Bytes = std::map<std::pair<const GroupSpec*, const GroupSpec*>, double>;

std::vector<Bytes>& ledger()  // by phase tag
{
  static std::vector<Bytes> per_phase;
  return per_phase;
}

bool counting = false;

}  // namespace

void count_traffic(const Platform& platform, HostId from, HostId to, double bytes)
{
  if (from != to)
    count_group_traffic(platform.spec().group_of(from), platform.spec().group_of(to), bytes);
}

void count_group_traffic(const GroupSpec& from, const GroupSpec& to, double bytes)
{
  if (!counting || !(bytes > 0))
    return;
  const int tag = phase_of_tag(phase_tag());  // background work's bytes are billed too
  if (tag == kNoPhase)
    return;
  const size_t slot = static_cast<size_t>(tag);
  auto& all         = ledger();
  if (slot >= all.size())
    all.resize(slot + 1);
  all[slot][{&from, &to}] += bytes;
}

std::map<GroupPair, double> phase_traffic(int tag)
{
  std::map<GroupPair, double> out;
  const size_t slot = static_cast<size_t>(tag);
  if (tag < 0 || slot >= ledger().size())
    return out;
  for (const auto& [pair, bytes] : ledger()[slot])
    out[{pair.first->name, pair.second->name}] += bytes;
  return out;
}

void start_traffic_ledger(bool count)
{
  ledger().clear();
  counting = count;
}

}  // namespace llsim
