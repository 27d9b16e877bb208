// Named results of a phase or a service, in SI units, in a fixed order per kind, and their
// declarations. Every phase kind and service kind declares the metrics it writes (name, unit,
// description) in one table, with LLSIM_DECLARE_METRICS next to its registration:
//
//   const MetricTable kTransferMetrics = {
//       {"bytes", MetricUnit::Bytes, "bytes written to the storage service"}, ...};
//   LLSIM_DECLARE_METRICS(Phase, "transfer", kTransferMetrics);
//
// `llsim models` lists the tables (sim/cli/metrics_listing.hpp), the console table and report.md
// format each value by its declared unit, and a run checks every metric written against its
// kind's table (sim/run/simulation.cpp): one not declared is an internal error.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace llsim {

using Metrics = std::vector<std::pair<std::string, double>>;

enum class MetricUnit {
  Count,           // things counted: requests, files, failures (fractional only under a scale)
  Seconds,         // a duration or a point in simulated time
  Bytes,           // a size
  BytesPerSecond,  // a bandwidth
  PerSecond,       // events per second: operations, requests, tokens
  Ratio,           // a share, between 0 and 1
  Flop,            // floating-point operations
  Number,          // any other dimensionless figure (RPCs per operation, sequences on average)
  Currency,        // money, in the scenario's accounting.currency
  KilowattHours,   // energy (kWh: what planners read, 3.6e6 J)
};

// How the unit is written in listings: "count", "s", "B", "B/s", "1/s", "ratio", "FLOP", "number",
// "currency", "kWh".
const char* metric_unit_name(MetricUnit unit);

struct MetricSpec {
  std::string name;
  MetricUnit unit;
  std::string description;  // says when the value is null or left at 0 (a condition it depends on)
};
using MetricTable = std::vector<MetricSpec>;

// The rows of `first`, then those of `then` (a service kind's table after every service's).
MetricTable joined(const MetricTable& first, const MetricTable& then);

// One kind's table: `family` is the registry's interface name (Phase::kInterfaceName,
// Service::kInterfaceName), `name` the implementation's (its `kind:`).
struct MetricDeclaration {
  std::string family;
  std::string name;
  std::string file;  // the source file that declares it, relative to the repository
  MetricTable table;

  const MetricSpec* find(const std::string& metric) const;
};

// The rows every kind of a family gains after its own (the accounting's cost and energy): empty
// for a family or kind it does not extend.
using MetricAppendix = MetricTable (*)(const std::string& family, const std::string& name);

class MetricCatalog {
 public:
  // Called by LLSIM_DECLARE_METRICS, from a static initialiser. A second table for the same kind,
  // a name twice in one table (its appendices' rows included), or a table declared after the
  // first lookup is recorded in errors().
  static bool add(const std::string& family, const std::string& name, MetricTable table, const char* file);
  // Called from a static initialiser; lookups see every table with its appendices (one appended
  // after the first lookup is recorded in errors()).
  static bool append_to_every(MetricAppendix appendix);
  // nullptr when the kind declares no table.
  static const MetricDeclaration* find(const std::string& family, const std::string& name);
  // Every declaration, sorted by family, then name.
  static std::vector<const MetricDeclaration*> all();
  static const std::vector<std::string>& errors();
};

// What is wrong with the metrics a kind wrote: every metric its table does not declare and every
// name written twice, each message naming the file that should declare it (see also
// MetricCatalog::errors()). Empty when all is well. A metric declared but not written in this run is no error (a phase
// that never ran writes none); tests/llsim/test_metrics_declared.py checks that each is written
// by some run.
std::vector<std::string> metric_errors(const std::string& family, const std::string& name, const Metrics& written);

}  // namespace llsim

#define LLSIM_METRICS_CONCAT_INNER(a, b) a##b
#define LLSIM_METRICS_CONCAT(a, b) LLSIM_METRICS_CONCAT_INNER(a, b)
// LLSIM_DECLARE_METRICS(Phase, "transfer", kTransferMetrics); at namespace scope in namespace
// llsim, `table` a MetricTable (defined above it in the same file, or returned by a function).
#define LLSIM_DECLARE_METRICS(Interface, name, table)                                                                  \
  static const bool LLSIM_METRICS_CONCAT(llsim_metrics_declared_, __LINE__) =                                          \
      ::llsim::MetricCatalog::add(Interface::kInterfaceName, name, table, __FILE__)
