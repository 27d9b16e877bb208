// Iteration model `table`: measured times, interpolated, the way profile-based simulators work
// (Vidur, DistServe's simulator). A CSV with the columns kind,tokens,seconds:
//   prefill rows: tokens = new prompt tokens in the iteration;
//   decode rows:  tokens = context tokens the iteration's decodes attend to (their KV read).
// Each kind is interpolated linearly between its points and extrapolated from its last two
// outside them (never below 0); times must not decrease as tokens grow. A decode's time depends
// on the context tokens its batch reads, not on the batch size itself (the profile's points
// carry whatever batch they were measured at). An iteration with both takes prefill(tokens) + decode(context):
// that sum counts the weights read twice, an assumption on the safe side for mixed batches.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/serve_single.yaml --set 'phases.chat.iteration={impl: table, file: serve_iteration_table.csv}'
#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/piecewise_linear.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/serve/cost/iteration_model.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace llsim {

namespace {

const ParamTable kTableParams = {
    ParamSpec::text("file", "CSV kind,tokens,seconds with prefill and decode rows (relative to the scenario)"),
};

class Table : public IterationModel {
 public:
  Table(const Params& p, const Context& c)
  {
    if (c.pipeline_stages > 1)
      p.ref().fail("the table model's measured times are of whole iterations of one instance; it cannot split "
                   "them into " +
                   std::to_string(c.pipeline_stages) + " pipeline stages (use the operators model with pp)");
    if (c.data_parallel > 1)
      p.ref().fail("the table model's measured times are of one instance alone; it cannot price MoE layers shared "
                   "by " +
                   std::to_string(c.data_parallel) + " data-parallel ranks (use the operators model with dp)");
    const std::string file = p.path("file");
    const CsvTable csv     = read_csv_file(file);
    const size_t kind = csv.column("kind"), tokens = csv.column("tokens"), seconds = csv.column("seconds");
    std::map<std::string, std::map<double, double>> points;
    for (size_t r = 0; r < csv.rows.size(); ++r) {
      const std::string& k    = csv.rows[r][kind];
      const std::string where = file + ":" + std::to_string(csv.line_of_row[r]) + ": ";
      if (k != "prefill" && k != "decode")
        throw ConfigError(where + unknown_word("kind", k, {"prefill", "decode"}));
      const double x = csv.number(r, tokens), y = csv.number(r, seconds);
      if (x < 0 || y < 0)
        throw ConfigError(where + "tokens and seconds must be >= 0");
      if (!points[k].emplace(x, y).second)
        throw ConfigError(where + "a second " + k + " row for " + csv.rows[r][tokens] + " tokens");
    }
    for (const char* k : {"prefill", "decode"})
      if (points[k].size() < 2)
        throw ConfigError(file + ": needs at least two " + std::string(k) + " rows (kind,tokens,seconds)");
    for (const char* k : {"prefill", "decode"}) {
      const std::vector<std::pair<double, double>> curve(points[k].begin(), points[k].end());
      for (size_t i = 1; i < curve.size(); ++i)
        if (curve[i].second < curve[i - 1].second)
          throw ConfigError(file + ": " + k + " times must not decrease as tokens grow (" +
                            format_number(curve[i].first) + " tokens take less than " +
                            format_number(curve[i - 1].first) + ")");
      (std::string(k) == "prefill" ? prefill_ : decode_) = PiecewiseLinear(curve);
    }
  }

  double seconds(const BatchWork& w) const override
  {
    double t = 0;
    if (w.prefill_tokens > 0)
      t += prefill_.at(static_cast<double>(w.prefill_tokens));
    if (w.decodes > 0)
      t += decode_.at(w.decode_context);
    return t;
  }

 private:
  PiecewiseLinear prefill_, decode_;
};

}  // namespace

LLSIM_REGISTER(IterationModel, "table", Table, "interpolates measured prefill and decode times from a CSV",
               kTableParams);

}  // namespace llsim
