// The metrics a phase kind or service kind declares (sim/core/metrics.hpp), for `llsim models`:
// each metric's name, unit and description, as indented text or as a Markdown table.
#pragma once
#include <string>

namespace llsim {

// `family` is the registry's interface name, `name` the implementation's. Text:
//     metrics (declared in sim/loads/transfer_phase.cpp):
//       bytes  (B)
//           bytes written to the storage service
// Markdown: a "Metrics" line and a table of metric, unit and description. "" when the kind
// declares none.
std::string metrics_listing(const std::string& family, const std::string& name, bool markdown);

// `text` for a cell of a Markdown table ('|' escaped, '<' written as &lt; so that a name such as
// <phase>.csv is not read as an HTML tag).
std::string markdown_cell(const std::string& text);

}  // namespace llsim
