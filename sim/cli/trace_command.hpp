// `llsim trace stats TRACE [--format F] [--cache-blocks N,...] [--nodes N] [--json] [--skip-bad-lines]`:
// the request rate, input and output length percentiles and the ideal prefix hit ratio of a
// request trace for each cache size (sim/serve/kv/prefix_cache.hpp), as text or one JSON object.
// A fault trace (--format infinitehbd, or a .json file holding an array) is summarised per fault
// class instead (sim/cli/fault_trace_stats.hpp).
#pragma once
#include <string>

namespace CLI {
class App;
}

namespace llsim {

struct TraceArguments {
  std::string file, format;
  std::string cache_blocks = "inf";
  bool json = false, skip_bad_lines = false;
  long long nodes = 0;  // a fault trace's node count (0: those with a fault)
};

// Declares `trace stats` and its options on `app`, filling `a` when parsed; returns `trace`.
CLI::App* add_trace_command(CLI::App& app, TraceArguments& a);

// Returns the exit status; throws std::invalid_argument for a bad option value and ConfigError
// for a bad trace.
int trace_stats_command(const TraceArguments& a);

}  // namespace llsim
