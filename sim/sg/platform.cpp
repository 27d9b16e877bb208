#include "sim/sg/platform.hpp"

#include "sim/core/random.hpp"
#include "sim/platform/topology.hpp"

#include <simgrid/s4u.hpp>

#include <map>

namespace sg4 = simgrid::s4u;

namespace llsim {

namespace {

using simgrid::kernel::routing::NetPoint;

struct BuiltGroup {
  sg4::NetZone* zone;
  NetPoint* gateway;
};

}  // namespace

Platform::Platform(const PlatformSpec& spec, uint64_t seed)
    : spec_(spec)
    , census_(spec)
{
  hosts_.reserve(spec.host_count());
  sg4::NetZone* root = spec.topology ? sg4::create_full_zone("platform") : sg4::create_star_zone("platform");
  std::map<std::string, BuiltGroup> built;
  for (const auto& group : spec.groups) {
    Rng rng            = Rng::stream(seed, "platform.speed." + group.name);
    sg4::NetZone* zone = sg4::create_star_zone(group.name);
    zone->set_parent(root);
    for (int64_t i = 0; i < group.count; ++i) {
      const std::string name = group.name + "-" + std::to_string(i);
      sg4::Host* host =
          zone->create_host(name, group.speed->sample(rng))->set_core_count(static_cast<int>(group.cores));
      sg4::LinkInRoute nic(
          zone->create_split_duplex_link(name + "-nic", group.nic_Bps)->set_latency(group.nic_latency_s)->seal(),
          sg4::LinkInRoute::Direction::UP);
      zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, {nic}, true);
      host->seal();
      hosts_.push_back(host);
    }
    NetPoint* gateway = zone->create_router(group.name + "-gw");
    zone->seal();
    built[group.name] = {zone, gateway};
  }

  if (!spec.topology) {
    sg4::Link* backbone =
        root->create_link("backbone", spec.backbone_Bps)->set_latency(spec.backbone_latency_s)->seal();
    for (const auto& [name, g] : built)
      root->add_route(g.zone->get_netpoint(), nullptr, g.gateway, nullptr, {sg4::LinkInRoute(backbone)}, true);
  } else {
    std::vector<sg4::SplitDuplexLink*> links;
    for (const auto& l : spec.topology->links) {
      sg4::SplitDuplexLink* link = root->create_split_duplex_link(l.name, l.bandwidth_Bps);
      link->set_latency(l.latency_s)->seal();
      links.push_back(link);
    }
    for (size_t a = 0; a < spec.groups.size(); ++a)
      for (size_t b = a + 1; b < spec.groups.size(); ++b) {
        std::vector<sg4::LinkInRoute> route;
        for (const RouteHop& hop : route_between(spec, spec.groups[a].name, spec.groups[b].name))
          route.emplace_back(links[hop.link],
                             hop.forward ? sg4::LinkInRoute::Direction::UP : sg4::LinkInRoute::Direction::DOWN);
        const BuiltGroup& ga = built.at(spec.groups[a].name);
        const BuiltGroup& gb = built.at(spec.groups[b].name);
        root->add_route(ga.zone->get_netpoint(), gb.zone->get_netpoint(), ga.gateway, gb.gateway, route, true);
      }
  }
  root->seal();
}

double Platform::speed(HostId h) const
{
  return hosts_[h]->get_speed();
}

const std::string& Platform::name(HostId h) const
{
  return hosts_[h]->get_name();
}

}  // namespace llsim
