// Failure model `trace`: failures replayed from a CSV with header time,node (seconds from the
// phase start, compute node index). The job MTBF given to the checkpoint policies is the last
// failure time divided by the number of failures. Malformed lines and nodes out of range are
// errors naming the file and line.
//   file: path relative to the scenario, required
#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/train/interfaces.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace llsim {

namespace {

const ParamTable kTraceParams = {
    ParamSpec::text("file", "CSV time,node (seconds from the phase start, node index)"),
};

class TraceFailures : public FailureModel {
 public:
  TraceFailures(const Params& p, const Context& c)
  {
    const std::string file = p.path("file");
    try {
      const CsvTable table = read_csv_file(file);
      const size_t time = table.column("time"), node = table.column("node");
      for (size_t r = 0; r < table.rows.size(); ++r) {
        const Failure f{table.number(r, time), static_cast<int64_t>(table.number(r, node))};
        if (f.time_s < 0 || f.node < 0 || f.node >= c.nodes || table.number(r, node) != std::floor(table.number(r, node)))
          throw ConfigError(file + ":" + std::to_string(table.line_of_row[r]) +
                            ": expected time >= 0 and a node index from 0 to " + std::to_string(c.nodes - 1));
        failures_.push_back(f);
      }
    } catch (const ConfigError& e) {
      p.fail("file", e.what());
    }
    std::stable_sort(failures_.begin(), failures_.end(),
                     [](const Failure& a, const Failure& b) { return a.time_s < b.time_s; });
  }
  Failure next_failure(double after, Rng&) override
  {
    for (const auto& f : failures_)
      if (f.time_s > after)
        return f;
    return {};
  }
  double job_mtbf_s() const override
  {
    if (failures_.empty())
      return std::numeric_limits<double>::infinity();
    return failures_.back().time_s / static_cast<double>(failures_.size());
  }

 private:
  std::vector<Failure> failures_;
};

}  // namespace

LLSIM_REGISTER(FailureModel, "trace", TraceFailures, "failures replayed from a CSV file", kTraceParams);

}  // namespace llsim
