// Named results of a phase or a service, in SI units, in a fixed order per kind.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace llsim {

using Metrics = std::vector<std::pair<std::string, double>>;

}  // namespace llsim
