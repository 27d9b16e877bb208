// `llsim trace stats TRACE [--format F] [--cache-blocks N,...] [--json] [--skip-bad-lines]`:
// the request rate, input and output length percentiles and the ideal prefix hit ratio of a
// request trace for each cache size (sim/serve/prefix_cache.hpp), as text or one JSON object.
#pragma once
#include <string>
#include <vector>

namespace llsim {

// args[0] is "trace". Returns the exit status; throws std::invalid_argument for a bad command
// line (the caller prints the usage) and ConfigError for a bad trace.
int trace_command(const std::vector<std::string>& args);

}  // namespace llsim
