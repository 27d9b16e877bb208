#include "sim/sg/link_census.hpp"

#include "sim/platform/topology.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

namespace {

size_t group_index(const PlatformSpec& spec, HostId h)
{
  return static_cast<size_t>(&spec.group_of(h) - spec.groups.data());
}

}  // namespace

LinkCensus::LinkCensus(const PlatformSpec& spec)
    : spec_(spec)
{
  static const WaitResource backbone = wait_resource("network: backbone"), links = wait_resource("network: links");
  const size_t hosts      = spec.host_count();
  const size_t groups     = spec.groups.size();
  const size_t first_link = 2 * hosts + 1;  // after the NICs and the backbone
  counts_.assign(first_link + (spec.topology ? 2 * spec.topology->links.size() : 0), 0);
  between_groups_.resize(groups * groups);
  for (size_t a = 0; a < groups; ++a)
    for (size_t b = 0; b < groups; ++b) {
      if (a == b)
        continue;
      std::vector<Hop>& hops = between_groups_[a * groups + b];
      if (!spec.topology) {
        hops.push_back({2 * hosts, spec.backbone_Bps, backbone});
        continue;
      }
      for (const RouteHop& hop : route_between(spec, spec.groups[a].name, spec.groups[b].name))
        hops.push_back(
            {first_link + 2 * hop.link + (hop.forward ? 0 : 1), spec.topology->links[hop.link].bandwidth_Bps, links});
    }
}

template <class Visit>
void LinkCensus::for_each_hop(HostId from, HostId to, Visit visit) const
{
  static const WaitResource nic = wait_resource("network: NIC");
  const size_t a = group_index(spec_, from), b = group_index(spec_, to);
  visit(Hop{2 * static_cast<size_t>(from), spec_.groups[a].nic_Bps, nic});
  if (a != b)
    for (const Hop& hop : between_groups_[a * spec_.groups.size() + b])
      visit(hop);
  visit(Hop{2 * static_cast<size_t>(to) + 1, spec_.groups[b].nic_Bps, nic});
}

void LinkCensus::enter(HostId from, HostId to)
{
  for_each_hop(from, to, [this](const Hop& hop) { ++counts_[hop.slot]; });
}

void LinkCensus::leave(HostId from, HostId to)
{
  for_each_hop(from, to, [this](const Hop& hop) { --counts_[hop.slot]; });
}

LinkCensus::Shares LinkCensus::shares(HostId from, HostId to) const
{
  Shares out;
  for_each_hop(from, to, [&](const Hop& hop) {
    out.push_back({hop.resource, hop.Bps / std::max(1, counts_[hop.slot])});
  });
  return out;
}

void LinkCensus::narrow(HostId from, HostId to, Shares& shares) const
{
  size_t k = 0;
  for_each_hop(from, to, [&](const Hop& hop) {
    shares[k].Bps = std::min(shares[k].Bps, hop.Bps / std::max(1, counts_[hop.slot]));
    ++k;
  });
}

CountedFlows::~CountedFlows()
{
  for (const Flow& f : flows_)
    if (f.running)
      census_.leave(f.from, f.to);
}

size_t CountedFlows::add(HostId from, HostId to, double now_s)
{
  census_.enter(from, to);
  flows_.push_back({from, to, now_s, census_.shares(from, to), true});
  return flows_.size() - 1;
}

void CountedFlows::look(Flow& f)
{
  census_.narrow(f.from, f.to, f.shares);
}

void CountedFlows::look_all()
{
  for (Flow& f : flows_)
    if (f.running)
      look(f);
}

void CountedFlows::end(size_t flow, double moved_B, double now_s)
{
  Flow& f = flows_[flow];
  look(f);
  census_.leave(f.from, f.to);
  f.running = false;
  // The link whose share is nearest the rate achieved (a flow too short to tell: the narrowest);
  // of links as near, the narrowest; of those, the first on the route.
  const double rate  = now_s > f.start_s ? moved_B / (now_s - f.start_s) : 0;
  const auto off     = [rate](const LinkCensus::Share& s) { return rate > 0 ? std::abs(std::log(s.Bps / rate)) : 0; };
  size_t nearest     = 0;
  double nearest_off = off(f.shares[0]);
  for (size_t k = 1; k < f.shares.size(); ++k) {
    const double o = off(f.shares[k]);
    if (o != nearest_off ? o < nearest_off : f.shares[k].Bps < f.shares[nearest].Bps) {
      nearest     = k;
      nearest_off = o;
    }
  }
  limit_ = f.shares[nearest].resource;
  ended_ = true;
}

WaitResource CountedFlows::limit() const
{
  static const WaitResource nic = wait_resource("network: NIC");
  return ended_ ? limit_ : nic;
}

}  // namespace llsim
