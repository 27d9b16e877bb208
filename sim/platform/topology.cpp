#include "sim/platform/topology.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>

#include <map>

namespace llsim {

namespace {

using Graph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property,
                          boost::property<boost::edge_weight_t, double, boost::property<boost::edge_index_t, size_t>>>;

struct TopologyGraph {
  Graph graph;
  std::map<std::string, size_t> vertex;
};

TopologyGraph build_graph(const PlatformSpec& spec)
{
  TopologyGraph g;
  for (const auto& group : spec.groups)
    g.vertex.emplace(group.name, g.vertex.size());
  for (const auto& s : spec.topology->switches)
    g.vertex.emplace(s, g.vertex.size());
  g.graph                  = Graph(g.vertex.size());
  constexpr double kPerHop = 1e-12;  // prefer fewer links among equal latencies
  const auto& links        = spec.topology->links;
  for (size_t i = 0; i < links.size(); ++i)
    boost::add_edge(g.vertex.at(links[i].end_a), g.vertex.at(links[i].end_b), {links[i].latency_s + kPerHop, i},
                    g.graph);
  return g;
}

}  // namespace

std::vector<RouteHop> route_between(const PlatformSpec& spec, const std::string& from, const std::string& to)
{
  const TopologyGraph g = build_graph(spec);
  const size_t source   = g.vertex.at(from);
  std::vector<Graph::vertex_descriptor> predecessor(boost::num_vertices(g.graph));
  std::vector<double> distance(boost::num_vertices(g.graph));
  boost::dijkstra_shortest_paths(g.graph, source,
                                 boost::predecessor_map(predecessor.data()).distance_map(distance.data()));
  std::vector<RouteHop> reversed;
  const auto index = boost::get(boost::edge_index, g.graph);
  for (size_t v = g.vertex.at(to); v != source; v = predecessor[v]) {
    const size_t u = predecessor[v];
    if (u == v)
      return {};  // unreachable; check_connected reports it
    // Among parallel links between u and v, the lowest-latency one (what Dijkstra relaxed).
    const auto& links = spec.topology->links;
    size_t best       = SIZE_MAX;
    for (auto [e, end] = boost::out_edges(u, g.graph); e != end; ++e)
      if (boost::target(*e, g.graph) == v && (best == SIZE_MAX || links[index[*e]].latency_s < links[best].latency_s))
        best = index[*e];
    reversed.push_back({best, g.vertex.at(links[best].end_a) == u});
  }
  return {reversed.rbegin(), reversed.rend()};
}

void check_connected(const PlatformSpec& spec, const YamlRef& where)
{
  const TopologyGraph g = build_graph(spec);
  std::vector<int> component(boost::num_vertices(g.graph));
  boost::connected_components(g.graph, component.data());
  const int first = component[g.vertex.at(spec.groups.front().name)];
  for (const auto& group : spec.groups)
    if (component[g.vertex.at(group.name)] != first)
      where.fail("group '" + group.name + "' is not connected to group '" + spec.groups.front().name +
                 "' by the topology's links");
}

}  // namespace llsim
