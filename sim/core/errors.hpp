// Error types and their exit codes. A ConfigError is the user's input being wrong (exit 2);
// a SimulationError is something that went wrong while simulating a valid scenario (exit 1).
#pragma once
#include <stdexcept>
#include <string>

namespace llsim {

inline constexpr int kExitOk                = 0;
inline constexpr int kExitSimulationFailure = 1;
inline constexpr int kExitConfigError       = 2;

// Bad scenario, trace or command line. The message already carries "file:line:col: path: ".
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace llsim
