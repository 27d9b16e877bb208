// A fault trace of events, as the InfiniteHBD trace release gives it (traces/README.md): a JSON
// array of {node_id, event_time (days), event_type: fault_start | fault_end,
// fault_type: {Level, Class, Desc}}. A fault_end closes the earliest open fault_start of the same
// node and fault type. Every error names the file and the line of the event.
#pragma once
#include "sim/faults/fault_class.hpp"

#include <string>
#include <vector>

namespace llsim {

struct TraceFault {
  size_t node    = 0;  // index into FaultEventTrace::nodes
  double start_s = 0, end_s = 0;
  std::string level, cls, desc;  // as the trace gives them
  size_t start_line = 0, end_line = 0;

  std::string cause() const { return level + "/" + cls; }  // "Hardware Failure/GPU"
};

struct FaultEventTrace {
  std::vector<std::string> nodes;  // node ids, in the order they first appear
  std::vector<TraceFault> faults;  // in order of their start (then of the file)
  double last_event_s = 0;         // time of the last event
};

inline constexpr size_t kMaxFaultEvents = 10000000;

FaultEventTrace read_fault_event_trace(const std::string& file);
// `text` is the file's content; `file` names it in errors.
FaultEventTrace parse_fault_event_trace(const std::string& text, const std::string& file);

// The class a trace fault counts under: software failures are software; hardware failures of
// Class GPU are hbm when their Desc is an ECC error (the GPU's memory), else gpu; NIC is nic;
// Parameter Plane Cable (the training network's links) is switch; any other hardware (power
// supply, fan, motherboard, CPU, ...) is host; the trace's "Other Failure" level is other.
FaultClass fault_class_of(const TraceFault& f);

}  // namespace llsim
