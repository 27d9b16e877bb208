#include "sim/platform/platform_spec.hpp"

#include "sim/core/text.hpp"
#include "sim/platform/topology.hpp"

#include <set>
#include <stdexcept>

namespace llsim {

namespace {

// A million hosts take about 3 GB and 25 s to build in SimGrid before anything runs.
constexpr double kMaxHosts = 1e6;
// Each disk is a SimGrid disk, and services keep per-disk state from the start.
constexpr double kMaxDisks = 1e6;

const ParamTable& nic_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("bandwidth", Dimension::Bandwidth, "NIC bandwidth, each direction (full duplex)").positive(),
      ParamSpec::quantity("latency", Dimension::Duration, "NIC latency").defaults("1us").at_least(0),
  };
  return t;
}

const ParamTable& backbone_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("bandwidth", Dimension::Bandwidth, "aggregate capacity shared by all traffic between groups")
          .positive(),
      ParamSpec::quantity("latency", Dimension::Duration, "latency of crossing the backbone")
          .defaults("1us")
          .at_least(0),
  };
  return t;
}

const ParamTable& network_params()
{
  static const ParamTable t = {
      ParamSpec::one_of("model", {"cm02", "lv08"},
                        "cm02 (max-min sharing, latencies as given, one flow at most 4 MiB / (2 x "
                        "route latency); the default: bytes / narrowest link holds on low-latency routes) or "
                        "lv08 (TCP corrections: 97% bandwidth, 13.01x latency)")
          .defaults("cm02"),
  };
  return t;
}

NetworkModel parse_network(const Params& p)
{
  return p.text("model") == "cm02" ? NetworkModel::Cm02 : NetworkModel::Lv08;
}

const ParamTable& link_params()
{
  static const ParamTable t = {
      ParamSpec::text("name", "link name (unique)"),
      ParamSpec::text_list("between", "the two ends: group or switch names"),
      ParamSpec::quantity("bandwidth", Dimension::Bandwidth, "bandwidth, each direction").positive(),
      ParamSpec::quantity("latency", Dimension::Duration, "latency").defaults("1us").at_least(0),
  };
  return t;
}

const ParamTable& topology_params()
{
  static const ParamTable t = {
      ParamSpec::text_list("switches", "names of switches (vertices that are not groups)").defaults("[]"),
      ParamSpec::list("links", "links, each {name, between: [a, b], bandwidth, latency}").with_fields(link_params()),
  };
  return t;
}

GroupSpec parse_group(const std::string& name, const Params& p)
{
  GroupSpec g;
  g.name           = name;
  g.count          = p.integer("count");
  g.speed          = p.distribution("speed");
  g.cores          = p.integer("cores");
  g.memory_B       = p.quantity("memory");
  const Params nic = p.section("nic", nic_params());
  g.nic_Bps        = nic.bandwidth("bandwidth").value;
  g.nic_latency_s  = nic.quantity("latency");
  if (p.has("disks")) {
    g.disks = parse_disks(p.section("disks", disk_params()));
  }
  if (p.has("gpu")) {
    g.gpu = parse_gpu(p.section("gpu", gpu_params()));
  }
  if (p.has("memory_bandwidth"))
    g.memory_Bps = p.quantity("memory_bandwidth");
  if (p.has("cost"))
    g.cost = parse_group_cost(p.section("cost", group_cost_params()), g.gpu ? g.gpu->count : 0);
  if (p.has("power"))
    g.power = parse_group_power(p.section("power", group_power_params()));
  return g;
}

TopologySpec parse_topology(const Params& p, const std::vector<std::string>& groups)
{
  TopologySpec t;
  t.switches = p.text_list("switches");
  std::set<std::string> vertices(groups.begin(), groups.end());
  for (const auto& s : t.switches)
    if (!vertices.insert(s).second)
      p.fail("switches", "'" + s + "' is used twice (switch names must differ from each other and from groups)");
  std::vector<std::string> vertex_names(vertices.begin(), vertices.end());
  const YamlRef links = p.raw("links");
  if (!links.node().IsSequence() || links.node().size() == 0)
    links.fail("expected a non-empty list of links");
  std::set<std::string> link_names;
  for (size_t i = 0; i < links.node().size(); ++i) {
    const Params l(links.item(i), link_params());
    LinkSpec spec;
    spec.name = l.text("name");
    if (!link_names.insert(spec.name).second)
      l.fail("name", "link name '" + spec.name + "' is used twice");
    const auto ends = l.text_list("between");
    if (ends.size() != 2 || ends[0] == ends[1])
      l.fail("between", "expected two different ends, e.g. [compute, core0]");
    for (const auto& end : ends)
      if (vertices.count(end) == 0)
        l.fail("between", "unknown group or switch '" + end + "': " + suggestion(end, vertex_names));
    spec.end_a         = ends[0];
    spec.end_b         = ends[1];
    spec.bandwidth_Bps = l.quantity("bandwidth");
    spec.latency_s     = l.quantity("latency");
    t.links.push_back(spec);
  }
  return t;
}

}  // namespace

const ParamTable& group_params()
{
  static const ParamTable t = {
      ParamSpec::integer("count", "number of hosts").at_least(1),
      ParamSpec::distribution("speed", Dimension::Compute, "speed of one core (flop/s), drawn once per host")
          .defaults("1TFlops")
          .positive(),
      ParamSpec::integer("cores", "cores per host: a host runs that many computations at full speed at once "
                                  "(master-worker tasks); services do not use it (their capacity is their own "
                                  "threads and rates)")
          .defaults("1")
          .at_least(1),
      ParamSpec::quantity("memory", Dimension::Size, "memory per host").defaults("256GiB").at_least(0),
      ParamSpec::quantity("memory_bandwidth", Dimension::Bandwidth,
                          "CPU memory bandwidth per host (serve: attention on CPUs reads the KV at this rate)")
          .may_be_absent()
          .positive(),
      ParamSpec::section("nic", "network interface: {bandwidth, latency}").with_fields(nic_params()),
      ParamSpec::section("disks", "local disks: {count, read, write, capacity, ...} or {preset, count, ...}")
          .may_be_absent()
          .with_fields(disk_params()),
      ParamSpec::section("gpu", "accelerators per host: {flops, hbm_bandwidth, hbm, count} or {preset, count, ...}")
          .may_be_absent()
          .with_fields(gpu_params()),
      ParamSpec::section("cost", "price while allocated: {per_hour} or {per_gpu_hour} (no price: 0)")
          .may_be_absent()
          .with_fields(group_cost_params()),
      ParamSpec::section("power", "draw of one host, its GPUs aside: {idle, busy} (not given: 0 W)")
          .may_be_absent()
          .with_fields(group_power_params()),
  };
  return t;
}

const ParamTable& platform_params()
{
  static const ParamTable t = {
      ParamSpec::mapping("groups", "host groups by name"),
      ParamSpec::section("backbone", "{bandwidth, latency} joining every group (a star)")
          .may_be_absent()
          .with_fields(backbone_params()),
      ParamSpec::section("topology", "explicit switches and links between groups, instead of a backbone")
          .may_be_absent()
          .with_fields(topology_params()),
      ParamSpec::section("network", "{model}: how SimGrid shares and delays flows")
          .defaults("{}")
          .with_fields(network_params()),
  };
  return t;
}

PlatformSpec parse_platform(const Params& p)
{
  PlatformSpec spec;
  const YamlRef groups = p.raw("groups");
  if (!groups.node().IsMap() || groups.node().size() == 0)
    groups.fail("expected a mapping of group names to groups, e.g. compute: {count: 4, nic: {bandwidth: 10GBps}}");
  HostId next_host = 0;
  double disks     = 0;
  for (const auto& entry : groups.node()) {
    const std::string name = entry.first.Scalar();
    spec.groups.push_back(parse_group(name, Params(groups.child(name), group_params())));
    const GroupSpec& group = spec.groups.back();
    if (static_cast<double>(next_host) + static_cast<double>(group.count) > kMaxHosts)
      groups.child(name).child("count").fail(
          "the platform has more than " + format_number(kMaxHosts) +
          " hosts, llsim's limit (a million hosts take about 3 GB before anything runs)");
    if (group.disks) {
      disks += static_cast<double>(group.count) * static_cast<double>(group.disks->count);
      if (disks > kMaxDisks)
        groups.child(name).child("disks").child("count").fail("the platform has more than " + format_number(kMaxDisks) +
                                                              " disks, llsim's limit");
    }
    spec.groups.back().first_host = next_host;
    next_host += static_cast<HostId>(spec.groups.back().count);
  }
  spec.network            = parse_network(p.section("network", network_params()));
  const bool has_backbone = p.has("backbone"), has_topology = p.has("topology");
  if (has_backbone == has_topology)
    p.ref().fail("give exactly one of 'backbone' (a star joining all groups) or 'topology' (switches and links)");
  if (has_backbone) {
    const Params b          = p.section("backbone", backbone_params());
    spec.backbone_Bps       = b.quantity("bandwidth");
    spec.backbone_latency_s = b.quantity("latency");
  } else {
    const Params t = p.section("topology", topology_params());
    spec.topology  = parse_topology(t, spec.group_names());
    check_connected(spec, t.ref());
  }
  return spec;
}

const GroupSpec* PlatformSpec::find(const std::string& name) const
{
  for (const auto& g : groups)
    if (g.name == name)
      return &g;
  return nullptr;
}

const GroupSpec& PlatformSpec::group_of(HostId h) const
{
  for (const auto& g : groups)
    if (g.contains(h))
      return g;
  throw std::logic_error("host id " + std::to_string(h) + " is in no group");
}

HostId PlatformSpec::host_count() const
{
  return groups.empty() ? 0 : groups.back().first_host + static_cast<HostId>(groups.back().count);
}

std::string PlatformSpec::host_name(HostId h) const
{
  const GroupSpec& g = group_of(h);
  return g.name + "-" + std::to_string(h - g.first_host);
}

std::vector<std::string> PlatformSpec::group_names() const
{
  std::vector<std::string> names;
  for (const auto& g : groups)
    names.push_back(g.name);
  return names;
}

const GroupSpec& PlatformSpec::group_param(const Params& p, const std::string& key) const
{
  const std::string name = p.text(key);
  const GroupSpec* g     = find(name);
  if (g == nullptr)
    p.fail(key, "no platform group named '" + name + "': " + suggestion(name, group_names()));
  return *g;
}

}  // namespace llsim
