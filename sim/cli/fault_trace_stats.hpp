// `llsim trace stats --format infinitehbd TRACE [--nodes N] [--json]`: a fault trace of events
// summarised per class and per cause: faults, their share, the MTBF of one node (N x span /
// faults) and of the N nodes together (span / faults), and the repair time (fault_end -
// fault_start) as mean and percentiles. The span runs from the trace's time 0 to its last
// event; N defaults to the nodes with a fault in the file (the trace leaves out those without).
#pragma once
#include <string>

namespace llsim {

int fault_trace_stats(const std::string& file, long long nodes, bool json);

}  // namespace llsim
