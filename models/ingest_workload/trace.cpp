// Ingest workload `trace`: replays a CSV of metadata operations.
//
//   workload: {impl: trace, file: traces/ingest_sample.csv}
//
// Columns: time_s,client,op,path[,bytes]. `client` is a rank (0 .. ranks-1 of the phase's
// clients), `op` one of mkdir create open stat readdir unlink close, `path` absolute, `bytes`
// (optional column) the bytes a create writes before its close. A client issues its operations
// in file order, each when the previous one is done and not before its time_s after the phase
// starts. One step, `replay`. A bad line is an error naming the file and line.
// The namespace is not checked against the trace: a create of a path that exists counts one more
// inode, an unlink of a path that does not exist one less (never below zero per server).
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/ingest_mdtest.yaml --set 'phases.md.workload={impl: trace, file: ingest_trace.csv}'
#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/ingest/ingest_workload.hpp"

#include <cmath>
#include <vector>

namespace llsim {

namespace {

constexpr double kMaxTime_s = 1e9;  // beyond it, simulated times lose their microseconds

const ParamTable kTraceParams = {
    ParamSpec::text("file", "CSV of time_s,client,op,path[,bytes], relative to the scenario file"),
};

class TraceReplay : public IngestWorkload {
 public:
  TraceReplay(const Params& p, const Context& c)
      : per_rank_(static_cast<size_t>(c.ranks))
      , next_(per_rank_.size(), 0)
  {
    // A bad line is reported at the scenario's `file:` key too, so both places are named.
    try {
      read(p.path("file"), c.ranks);
    } catch (const ConfigError& e) {
      p.fail("file", e.what());
    }
  }

  size_t steps() const override { return 1; }
  std::string step_name(size_t) const override { return "replay"; }

  bool next(size_t, int64_t rank, IngestOp* op) override
  {
    const auto& ops = per_rank_[static_cast<size_t>(rank)];
    size_t& k       = next_[static_cast<size_t>(rank)];
    if (k == ops.size())
      return false;
    *op = ops[k++];
    return true;
  }

 private:
  void read(const std::string& file, int64_t ranks)
  {
    const CsvTable t  = read_csv_file(file);
    const size_t time = t.column("time_s"), client = t.column("client"), op = t.column("op"), path = t.column("path");
    const bool has_bytes = std::find(t.header.begin(), t.header.end(), "bytes") != t.header.end();
    const size_t bytes   = has_bytes ? t.column("bytes") : 0;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      const std::string where = file + ":" + std::to_string(t.line_of_row[r]) + ": ";
      IngestOp o;
      o.at_s            = t.number(r, time);
      const double rank = t.number(r, client);
      if (!(o.at_s >= 0) || o.at_s > kMaxTime_s)
        throw ConfigError(where + "time_s must be from 0 to 1e9 s (32 years)");
      if (rank < 0 || rank >= static_cast<double>(ranks) || rank != std::floor(rank))
        throw ConfigError(where + "client must be a rank from 0 to " + std::to_string(ranks - 1) + " (the phase has " +
                          std::to_string(ranks) + " ranks)");
      if (!parse_meta_op(t.rows[r][op], &o.op))
        throw ConfigError(where + unknown_word("op", t.rows[r][op],
                                               {"mkdir", "create", "open", "stat", "readdir", "unlink", "close"}));
      o.path = t.rows[r][path];
      if (o.path.empty() || o.path[0] != '/' || (o.path.size() > 1 && o.path.back() == '/') ||
          o.path.find("//") != std::string::npos)
        throw ConfigError(where + "path must be absolute, without empty components or a trailing '/', got '" + o.path +
                          "'");
      if (o.path == "/" && o.op != MetaOp::Stat && o.op != MetaOp::Readdir)
        throw ConfigError(where + "the root directory can only be stat'ed or read, not given to " + t.rows[r][op]);
      if (has_bytes) {
        o.bytes = t.number(r, bytes);
        if (!(o.bytes >= 0) || std::isinf(o.bytes))
          throw ConfigError(where + "bytes must be a finite number >= 0");
        if (o.bytes > 0 && o.op != MetaOp::Create)
          throw ConfigError(where + "only a create writes bytes");
      }
      per_rank_[static_cast<size_t>(rank)].push_back(std::move(o));
    }
    if (t.rows.empty())
      throw ConfigError(file + ":2: the trace has no operations");
  }

  std::vector<std::vector<IngestOp>> per_rank_;
  std::vector<size_t> next_;
};

}  // namespace

LLSIM_REGISTER(IngestWorkload, "trace", TraceReplay, "replays a CSV of time_s,client,op,path[,bytes]", kTraceParams);

}  // namespace llsim
