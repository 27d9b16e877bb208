#include "sim/scenario/phase_graph.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

#include <optional>
#include <utility>

namespace llsim {

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

// Records the first back edge (u -> v: v is an ancestor of u) and the DFS tree.
struct CycleFinder : boost::default_dfs_visitor {
  std::optional<std::pair<size_t, size_t>>* found;
  std::vector<size_t>* parent;
  void tree_edge(Graph::edge_descriptor e, const Graph& g) const
  {
    (*parent)[boost::target(e, g)] = boost::source(e, g);
  }
  void back_edge(Graph::edge_descriptor e, const Graph& g) const
  {
    if (!*found)
      *found = std::make_pair(boost::source(e, g), boost::target(e, g));
  }
};

}  // namespace

void check_acyclic(const std::vector<PhaseEntry>& phases, const std::vector<YamlRef>& after_refs)
{
  Graph g(phases.size());
  for (size_t i = 0; i < phases.size(); ++i)
    for (size_t dep : phases[i].after)
      boost::add_edge(dep, i, g);  // dep runs before i

  std::optional<std::pair<size_t, size_t>> back;
  std::vector<size_t> parent(phases.size());
  CycleFinder finder;
  finder.found  = &back;
  finder.parent = &parent;
  boost::depth_first_search(g, boost::visitor(finder));
  if (!back)
    return;
  const auto [from, to] = *back;  // `to` waits ... for `from`, which waits (transitively) for `to`
  std::string cycle     = phases[to].name;
  std::vector<size_t> chain;
  for (size_t v = from; v != to; v = parent[v])
    chain.push_back(v);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    cycle += " -> " + phases[*it].name;
  cycle += " -> " + phases[to].name;
  after_refs[to].fail("the 'after' dependencies form a cycle: " + cycle +
                      " (each phase runs after the one before it in this list)");
}

namespace {

// waits[i][j]: phase i runs after phase j, directly or through others (the graph is acyclic).
std::vector<std::vector<bool>> waits_for(const std::vector<PhaseEntry>& phases)
{
  std::vector<std::vector<bool>> waits(phases.size(), std::vector<bool>(phases.size(), false));
  for (size_t i = 0; i < phases.size(); ++i) {
    std::vector<size_t> todo(phases[i].after.begin(), phases[i].after.end());
    while (!todo.empty()) {
      const size_t j = todo.back();
      todo.pop_back();
      if (waits[i][j])
        continue;
      waits[i][j] = true;
      todo.insert(todo.end(), phases[j].after.begin(), phases[j].after.end());
    }
  }
  return waits;
}

}  // namespace

void check_group_claims(const std::vector<PhaseEntry>& phases)
{
  std::vector<std::vector<bool>> waits;  // computed on the first shared group
  for (size_t i = 0; i < phases.size(); ++i)
    for (const GroupClaim& mine : phases[i].claims)
      for (size_t j = 0; j < i; ++j)
        for (const GroupClaim& theirs : phases[j].claims) {
          if (mine.group != theirs.group)
            continue;
          if (waits.empty())
            waits = waits_for(phases);
          if (waits[i][j] || waits[j][i])
            continue;
          mine.where.fail("group '" + mine.group + "' is also where phase '" + phases[j].name + "' computes (" +
                          theirs.where.location() + "), and neither phase waits for the other, so both would " +
                          "use all of its hosts at once; give each its own group, or add '" + phases[j].name +
                          "' to the 'after' of '" + phases[i].name +
                          "' (a 'start' time does not order them: " + "when a phase ends is not known before the run)");
        }
}

}  // namespace llsim
