// Availability `trace`: outages replayed from a CSV with header host,down_at,up_at (host name as
// in the platform, e.g. volunteers-3; seconds from the phase start). A worker's outages must not
// overlap. Malformed lines, unknown hosts and overlaps are errors naming the file and line.
//   file: path relative to the scenario, required
#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/mw/availability.hpp"

#include <algorithm>
#include <map>
#include <vector>

namespace llsim {

namespace {

const ParamTable kTraceParams = {
    ParamSpec::text("file", "CSV host,down_at,up_at (seconds from the phase start)"),
};

class TraceAvailability : public AvailabilityModel {
 public:
  TraceAvailability(const Params& p, const Context& c) : outages_(static_cast<size_t>(c.workers.count))
  {
    const std::string file = p.path("file");
    try {
      load(file, c.workers);
    } catch (const ConfigError& e) {
      p.fail("file", e.what());
    }
  }

  Outage next_outage(size_t worker, double after, Rng&) const override
  {
    for (const auto& o : outages_[worker])
      if (o.down_s >= after)
        return o;
    return {};
  }

 private:
  void load(const std::string& file, const GroupSpec& workers)
  {
    const CsvTable table = read_csv_file(file);
    const size_t host = table.column("host"), down = table.column("down_at"), up = table.column("up_at");
    const std::string prefix = workers.name + "-";
    std::vector<std::vector<size_t>> line_of(outages_.size());
    for (size_t r = 0; r < table.rows.size(); ++r) {
      const std::string where = file + ":" + std::to_string(table.line_of_row[r]) + ": ";
      const std::string& name = table.rows[r][host];
      size_t index            = 0;
      bool valid              = name.compare(0, prefix.size(), prefix) == 0 && name.size() > prefix.size();
      if (valid) {
        const std::string digits = name.substr(prefix.size());
        valid = digits.find_first_not_of("0123456789") == std::string::npos && digits.size() < 10;
        if (valid)
          index = std::stoul(digits);
      }
      if (!valid || index >= outages_.size())
        throw ConfigError(where + "host '" + name + "' is not a worker (expected " + prefix + "0 .. " + prefix +
                          std::to_string(outages_.size() - 1) + ")");
      const Outage o{table.number(r, down), table.number(r, up)};
      if (o.down_s < 0 || o.up_s < o.down_s)
        throw ConfigError(where + "expected 0 <= down_at <= up_at");
      outages_[index].push_back(o);
      line_of[index].push_back(table.line_of_row[r]);
    }
    for (size_t w = 0; w < outages_.size(); ++w) {
      std::vector<size_t> order(outages_[w].size());
      for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return outages_[w][a].down_s < outages_[w][b].down_s; });
      std::vector<Outage> sorted;
      for (size_t i : order) {
        if (!sorted.empty() && outages_[w][i].down_s < sorted.back().up_s)
          throw ConfigError(file + ":" + std::to_string(line_of[w][i]) + ": outage of " + prefix + std::to_string(w) +
                            " overlaps an earlier one");
        sorted.push_back(outages_[w][i]);
      }
      outages_[w] = std::move(sorted);
    }
  }

  std::vector<std::vector<Outage>> outages_;
};

}  // namespace

LLSIM_REGISTER(AvailabilityModel, "trace", TraceAvailability, "outages replayed from a CSV file", kTraceParams);

}  // namespace llsim
