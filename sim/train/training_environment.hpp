// What the training run needs from the world around it: simulated time, the job's failures, and
// checkpoint I/O. The simulation implements it with SimGrid and the services
// (sim_training_environment.hpp); unit tests implement it with fixed costs, so the run's
// decisions can be checked by hand.
#pragma once
#include "sim/faults/fault_model.hpp"
#include "sim/train/checkpoint_mode.hpp"

#include <cstdint>
#include <set>
#include <vector>

namespace llsim {

class TrainingEnvironment {
 public:
  virtual ~TrainingEnvironment() = default;

  virtual double now() const = 0;
  // Lets time pass until `until` (training computes, or a fixed pause); false when the job
  // fails first: now() is then the failure's time and failed_writer() names what it destroyed.
  virtual bool advance_until(double until) = 0;
  // One checkpoint I/O operation carrying `scale` times the plan's bytes (a PartnerCopy carries
  // `share` of them), replayed through the services or charged its measured cost; false when
  // the job fails first. `lost`: writers whose own node-local copy is gone; a LocalRead reads
  // their parts from their partners' nodes (the next writer's), where the copies survive.
  virtual bool io(IoKind kind, double share, double scale, const std::set<size_t>& lost) = 0;

  // The parallel-file-system write of a checkpoint, in the background while training goes on.
  virtual void start_background(double scale) = 0;
  // When the background write ends (+inf while that is not known yet).
  virtual double background_end() = 0;
  virtual bool wait_background()  = 0;  // false when the job fails first
  virtual void drop_background()  = 0;  // the job failed: the write dies with it

  // The writers (indices into the plan's writers) whose nodes the last failure took down: one,
  // or several when nodes fail at the same instant; none for nodes that write no copy.
  virtual std::vector<size_t> failed_writers() const = 0;
  // The training data path (data_loader.hpp): whether iterations wait for their batch; the wait
  // (false when the job fails first); the end of an iteration, which lets the loader read ahead.
  virtual bool reads_data() const                = 0;
  virtual bool wait_for_batch(int64_t iteration) = 0;
  virtual void batch_done(int64_t iteration)     = 0;
  virtual void stop_data()                       = 0;  // the job stops (maintenance): batches read are lost
  // What caused the last failure, and when each node it took down is repaired.
  virtual FaultCause failure_cause() const              = 0;
  virtual std::vector<double> failed_nodes_up_s() const = 0;
  // I/O operations replayed through the services so far.
  virtual int64_t replays() const = 0;
  // The measured duration of an I/O kind (its last run), or -1 when it never ran.
  virtual double measured_s(IoKind kind) = 0;
  // Counters for the progress line.
  virtual void report(int64_t failures, int64_t restarts) = 0;
};

}  // namespace llsim
