// Counters phases show on the progress line while a run goes on ("pretrain: 12 restarts").
// A process runs one simulation, so the board is process-wide.
#pragma once
#include <string>

namespace llsim {

class ProgressBoard {
 public:
  // Sets what `owner` (a phase name) reports under `what` ("restarts").
  static void set(const std::string& owner, const std::string& what, double value);
  // "owner: value what, ..." in the order the entries were first set; "" when empty.
  static std::string text();
};

}  // namespace llsim
