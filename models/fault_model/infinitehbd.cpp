// Fault model `infinitehbd`: outages replayed from a fault trace of events (the InfiniteHBD
// release: traces/infinitehbd_fault_trace.json; format in sim/faults/fault_event_trace.hpp). Time 0
// of the simulation is day 0 of the trace. The trace's nodes go onto the group's hosts:
//   map: order    the i-th node to appear in the file on host i (default)
//   map: random   onto distinct hosts drawn with the scenario's seed
//   map: file     as `mapping` says: a CSV node_id,host (host names as in the platform)
// A node's faults that overlap merge into one outage, caused by the first. Each fault's cause is
// its trace class ("Hardware Failure/GPU"), counted under a class (fault_class_of). A host's
// MTBF is the start of the trace's last fault over its outages, so the group fails at the trace's rate.
//   file: path, required    map: order | random | file    mapping: CSV path (map: file)
// Source: the InfiniteHBD paper (ACM SIGCOMM 2025), trace data by StepFun, Apache-2.0.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run scenarios/paper/infinitehbd.yaml
#include "models/fault_model/host_names.hpp"
#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/faults/fault_event_trace.hpp"
#include "sim/faults/fault_model.hpp"

#include <map>
#include <numeric>

namespace llsim {

namespace {

const ParamTable kInfiniteHbdParams = {
    ParamSpec::text("file", "the fault trace (JSON events: node_id, event_time in days, event_type, fault_type)"),
    ParamSpec::one_of("map", {"order", "random", "file"},
                      "how the trace's nodes go onto the group's hosts: order, random (with the seed) or file")
        .defaults("order"),
    ParamSpec::text("mapping", "with map: file, a CSV node_id,host placing every node of the trace").may_be_absent(),
};

class InfiniteHbdFaults : public FaultModel {
 public:
  InfiniteHbdFaults(const Params& p, const Context& c)
      : outages_(static_cast<size_t>(c.group.count))
  {
    const std::string file = p.path("file");
    FaultEventTrace trace;
    try {
      trace = read_fault_event_trace(file);
    } catch (const ConfigError& e) {
      p.fail("file", e.what());
    }
    const std::vector<size_t> host = place(p, c, trace);
    std::map<std::string, uint32_t> cause_of;
    for (const TraceFault& f : trace.faults) {
      const FaultClass cls = fault_class_of(f);
      const auto [it, is_new] =
          cause_of.emplace(f.cause() + '\n' + fault_class_name(cls), static_cast<uint32_t>(causes_.size()));
      if (is_new)
        causes_.push_back({f.cause(), cls});
      auto& outages = outages_[host[f.node]];
      if (!outages.empty() && f.start_s <= outages.back().up_s)
        outages.back().up_s = std::max(outages.back().up_s, f.end_s);  // the host is down already
      else
        outages.push_back({f.start_s, f.end_s, it->second});
      last_failure_s_ = std::max(last_failure_s_, f.start_s);
    }
  }

  Outage outage(size_t index, size_t k, double, Rng&) const override
  {
    return k < outages_[index].size() ? outages_[index][k] : Outage{};
  }

  double mtbf_s(size_t index) const override
  {
    if (outages_[index].empty())
      return std::numeric_limits<double>::infinity();
    return last_failure_s_ / static_cast<double>(outages_[index].size());
  }

  std::vector<FaultCause> causes() const override { return causes_; }

 private:
  // The host of each node of the trace.
  static std::vector<size_t> place(const Params& p, const Context& c, const FaultEventTrace& trace)
  {
    const std::string map = p.text("map");
    if (map == "file")
      return from_mapping(p, c.group, trace);
    if (p.has("mapping"))
      p.fail("mapping", "a mapping file is read with map: file only");
    const size_t hosts = static_cast<size_t>(c.group.count);
    if (trace.nodes.size() > hosts)
      p.fail("map", "the trace has faults on " + std::to_string(trace.nodes.size()) + " nodes, but group '" +
                        c.group.name + "' has only " + std::to_string(hosts) +
                        " hosts: give the group at least as many");
    std::vector<size_t> order(hosts);
    std::iota(order.begin(), order.end(), 0);
    if (map == "random") {
      Rng rng = Rng::keyed(c.key, 0x6d6170);  // a stream of its own, apart from the hosts' streams
      for (size_t i = hosts; i > 1; --i)
        std::swap(order[i - 1], order[static_cast<size_t>(rng.uniform() * static_cast<double>(i))]);
    }
    order.resize(trace.nodes.size());
    return order;
  }

  static std::vector<size_t> from_mapping(const Params& p, const GroupSpec& group, const FaultEventTrace& trace)
  {
    if (!p.has("mapping"))
      p.fail("map", "map: file needs `mapping`, a CSV node_id,host");
    const std::string file = p.path("mapping");
    std::map<std::string, size_t> node_of;
    for (size_t n = 0; n < trace.nodes.size(); ++n)
      node_of[trace.nodes[n]] = n;
    std::vector<size_t> host(trace.nodes.size(), SIZE_MAX);
    std::vector<bool> taken(static_cast<size_t>(group.count), false);
    try {
      const CsvTable table = read_csv_file(file);
      const size_t node = table.column("node_id"), host_column = table.column("host");
      for (size_t r = 0; r < table.rows.size(); ++r) {
        const std::string where = file + ":" + std::to_string(table.line_of_row[r]) + ": ";
        const auto n            = node_of.find(table.rows[r][node]);
        if (n == node_of.end())
          throw ConfigError(where + "node '" + table.rows[r][node] + "' has no fault in the trace");
        const auto h = host_index_in(group, table.rows[r][host_column]);
        if (!h)
          throw ConfigError(where + "host '" + table.rows[r][host_column] + "' is not in group '" + group.name +
                            "' (expected " + host_range_of(group) + ")");
        if (host[n->second] != SIZE_MAX || taken[*h])
          throw ConfigError(where + "node or host placed twice (one node per host)");
        host[n->second] = *h;
        taken[*h]       = true;
      }
      for (size_t n = 0; n < host.size(); ++n)
        if (host[n] == SIZE_MAX)
          throw ConfigError(file + ": node '" + trace.nodes[n] + "' of the trace has no host (" +
                            std::to_string(table.rows.size()) + " of the trace's " +
                            std::to_string(trace.nodes.size()) + " nodes placed)");
    } catch (const ConfigError& e) {
      p.fail("mapping", e.what());
    }
    return host;
  }

  std::vector<std::vector<Outage>> outages_;
  std::vector<FaultCause> causes_;
  double last_failure_s_ = 0;
};

}  // namespace

LLSIM_REGISTER(FaultModel, "infinitehbd", InfiniteHbdFaults,
               "outages replayed from a fault trace of events (InfiniteHBD), nodes mapped onto the group",
               kInfiniteHbdParams);

}  // namespace llsim
