// The serving instances of one group of a serve system, as every system needs them: started
// one per host, following its host's faults, the least loaded of those up found, closed and
// joined at the end, their preemptions and swapped KV summed.
#pragma once
#include "sim/serve/serve_instance.hpp"
#include "sim/serve/serve_system.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

class InstanceSet {
 public:
  // Creates an instance that reports finished and lost requests to env.progress and follows the
  // faults of `host`, lets `setup` set its iteration, hooks and fault hosts, and starts it.
  ServeInstance& start(ServeEnv& env, int index, HostId host, const BatcherConfig& config, InstanceRole role,
                       const std::function<void(ServeInstance&)>& setup);

  size_t size() const { return instances_.size(); }
  ServeInstance& operator[](size_t i) const { return *instances_[i]; }
  ServeInstance& front() const { return *instances_.front(); }
  // The one up with the fewest sequences running, queued or on their way; ties: the lowest
  // index. Null when none is up.
  ServeInstance* least_loaded() const;
  // The loads a router sees, for logs: "3 1 down 0", one per instance in index order.
  std::string loads() const;
  void close_and_join();
  double preemptions() const { return sum(&Batcher::preemptions); }
  double swapped_bytes() const { return sum(&Batcher::swapped_bytes); }

 private:
  double sum(double (Batcher::*figure)() const) const;

  std::vector<std::unique_ptr<ServeInstance>> instances_;
};

// Counts a request as rejected now.
void reject_request(ServeEnv& env, int64_t id);

}  // namespace llsim
