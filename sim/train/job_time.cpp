#include "sim/train/job_time.hpp"

namespace llsim {

std::map<std::string, double> job_time(const TrainingResult& r, const std::map<std::string, double>& io_charged)
{
  std::map<std::string, double> out;
  // Rounding leaves a difference of equal sums (wasted_s of a job that never failed) a few ulps off 0.
  const double noise = 1e-12 * r.makespan_s;
  const auto add     = [&out, noise](const std::string& what, double seconds) {
    if (seconds > noise)
      out[what] += seconds;
  };
  add("compute", r.useful_s);
  add("work lost to failures", r.wasted_s());
  add("restart delays and host waits", r.restarting_s - r.recovery_read_s);
  add("maintenance", r.maintenance_s);
  const double io_wait_s = r.blocking_s + r.recovery_read_s + r.data_stall_s + r.data_warmup_s;
  double charged         = 0;
  for (const auto& [resource, seconds] : io_charged)
    charged += seconds;
  if (!(charged > 0)) {
    add("I/O (none run through the services)", io_wait_s);
    return out;
  }
  for (const auto& [resource, seconds] : io_charged)
    add(resource, io_wait_s * seconds / charged);
  return out;
}

}  // namespace llsim
