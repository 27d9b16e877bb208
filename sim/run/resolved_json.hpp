// resolved.json: the scenario as run (the tree resolved.yaml is written from, every default
// filled in) as a JSON document, for scripts that read a run without a YAML parser
// (analysis/plot.py).
//
// Mappings become objects (keys in the order resolved.yaml writes them), sequences arrays, and
// each scalar is typed by its text alone, the way llsim itself reads scalars (quoting does not
// matter to llsim, and resolved.yaml writes no quotes):
//   - text that is a JSON number as it stands (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?:
//     2, -0.5, 1e3) is written as that number, its text unchanged;
//   - true and false are written as booleans (the only flag values llsim accepts);
//   - a null node (~, null or nothing) is written as null;
//   - everything else is a string with its text unchanged: 10GBps, 30s, 50k/s, 05, +1, .5, inf.
// So {count: 2, bandwidth: 10GBps, resume: true} is {"count": 2, "bandwidth": "10GBps",
// "resume": true}. Indented by two spaces, one entry a line, ending with a newline.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>

namespace llsim {

std::string resolved_json(const YAML::Node& tree);

// Whether a scalar's text is written as a JSON number (the JSON grammar above).
bool is_json_number(const std::string& text);

}  // namespace llsim
