// The points of a parameter sweep (llsim sweep): the cross product of its --grid axes, each
// `PATH=v1,v2,...` (values are YAML; commas inside [...] or {...} do not split), the first axis
// varying slowest. Without axes the scenario itself is the single point.
#pragma once
#include <string>
#include <vector>

namespace llsim {

struct SweepAxis {
  std::string path;
  std::vector<std::string> values;
};

struct SweepPoint {
  std::vector<std::string> values;     // one per axis
  std::vector<std::string> overrides;  // "path=value", for --set
};

// Throws std::invalid_argument saying what was expected.
SweepAxis parse_sweep_axis(const std::string& text);
std::vector<SweepPoint> sweep_points(const std::vector<SweepAxis>& axes);

}  // namespace llsim
