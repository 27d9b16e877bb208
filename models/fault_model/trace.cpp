// Fault model `trace`: outages replayed from a CSV with header host,down_at,up_at (host name as
// in the platform, e.g. compute-3; seconds from the start of the simulation). A host's outages
// must not overlap. A host's MTBF is the time of the trace's last failure divided by that host's
// number of outages, so a set of hosts fails at the trace's observed rate.
// Malformed lines, hosts outside the group and overlaps are errors naming the file and line.
//   file: path relative to the scenario, required
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/tasks_failure_trace.yaml --set 'faults.0={group: workers, impl: trace, file: tasks_failure_trace.csv}'
#include "models/fault_model/host_names.hpp"
#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/faults/fault_model.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace llsim {

namespace {

const ParamTable kTraceParams = {
    ParamSpec::text("file", "CSV host,down_at,up_at (host names as in the platform; seconds from the start)"),
};

class TraceFaults : public FaultModel {
 public:
  TraceFaults(const Params& p, const Context& c)
      : outages_(static_cast<size_t>(c.group.count))
  {
    const std::string file = p.path("file");
    try {
      load(file, c.group);
    } catch (const ConfigError& e) {
      p.fail("file", e.what());
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

 private:
  void load(const std::string& file, const GroupSpec& group)
  {
    const CsvTable table = read_csv_file(file);
    const size_t host = table.column("host"), down = table.column("down_at"), up = table.column("up_at");
    const std::string prefix = group.name + "-";
    std::vector<std::vector<size_t>> line_of(outages_.size());
    for (size_t r = 0; r < table.rows.size(); ++r) {
      const std::string where = file + ":" + std::to_string(table.line_of_row[r]) + ": ";
      const std::string& name = table.rows[r][host];
      const auto found        = host_index_in(group, name);
      if (!found)
        throw ConfigError(where + "host '" + name + "' is not in group '" + group.name + "' (expected " +
                          host_range_of(group) + ")");
      const size_t index = *found;
      const Outage o{table.number(r, down), table.number(r, up)};
      if (o.down_s < 0 || o.up_s < o.down_s)
        throw ConfigError(where + "expected 0 <= down_at <= up_at");
      outages_[index].push_back(o);
      line_of[index].push_back(table.line_of_row[r]);
      last_failure_s_ = std::max(last_failure_s_, o.down_s);
    }
    for (size_t h = 0; h < outages_.size(); ++h) {
      std::vector<size_t> order(outages_[h].size());
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(),
                [&](size_t a, size_t b) { return outages_[h][a].down_s < outages_[h][b].down_s; });
      std::vector<Outage> sorted;
      for (size_t i : order) {
        if (!sorted.empty() && outages_[h][i].down_s < sorted.back().up_s)
          throw ConfigError(file + ":" + std::to_string(line_of[h][i]) + ": outage of " + prefix + std::to_string(h) +
                            " overlaps an earlier one");
        sorted.push_back(outages_[h][i]);
      }
      outages_[h] = std::move(sorted);
    }
  }

  std::vector<std::vector<Outage>> outages_;
  double last_failure_s_ = 0;
};

}  // namespace

LLSIM_REGISTER(FaultModel, "trace", TraceFaults, "outages replayed from a CSV file", kTraceParams);

}  // namespace llsim
