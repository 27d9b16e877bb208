// Contract of a worker availability model (registry "availability model", chosen with `impl:`):
// when each worker goes down and comes back. Pure logic, no SimGrid. Times are seconds from the
// phase start. A worker that goes down loses the task it was running (see master_worker.hpp).
#pragma once
#include "sim/core/random.hpp"
#include "sim/platform/platform_spec.hpp"

#include <limits>
#include <string>

namespace llsim {

struct Outage {
  double down_s = std::numeric_limits<double>::infinity();
  double up_s   = std::numeric_limits<double>::infinity();
};

class AvailabilityModel {
 public:
  struct Context {
    const PlatformSpec& platform;
    const GroupSpec& workers;
  };
  static constexpr const char* kInterfaceName = "availability model";
  static constexpr const char* kSelector      = "impl";

  virtual ~AvailabilityModel() = default;
  // The first outage of `worker` (index in its group) that starts at or after `after`, which is
  // the end of its previous outage (or 0). `rng` is that worker's own stream.
  virtual Outage next_outage(size_t worker, double after, Rng& rng) const = 0;
};

}  // namespace llsim
