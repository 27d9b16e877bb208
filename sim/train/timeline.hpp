// The training run as a sequence of iterations, checkpoints, failures and restarts, given the
// checkpoint costs measured through the I/O path. Pure logic: the same inputs and random stream
// give the same run, and tests can hand-compute it.
//
// - Training computes iterations (durations drawn from `iteration`); every `interval` of compute
//   (rounded to whole iterations, at least one) it takes a checkpoint: training stops for the
//   mode's blocking time (waiting first for the previous background write to the parallel file
//   system, if any), plus the time to write the file-state bytes at the checkpoint's rate.
// - A failure (from the failure model; also during checkpoints and restarts) loses all compute
//   since the newest checkpoint that survives it: a node-local level if the mode rebuilds it
//   after a node failure, else the newest checkpoint on the parallel file system (a background
//   write still in progress is lost). Then `restart_delay` plus reading that checkpoint back.
#pragma once
#include "sim/core/distribution.hpp"
#include "sim/train/interfaces.hpp"

#include <vector>

namespace llsim {

struct TimelineSetup {
  double iterations = 0;  // useful iterations to complete
  std::shared_ptr<const Distribution> iteration;
  double interval_s = 0;  // compute between checkpoints
  const CheckpointMode* mode;
  CheckpointCosts costs;
  double checkpoint_B = 0;  // bytes of one checkpoint on the parallel file system
  const FileStatePolicy* file_state;
  FileWorkload files;
  FailureModel* failures;
  double restart_delay_s = 0;
};

struct CheckpointRecord {
  int64_t index;
  double end_s;       // training resumes
  double iteration;   // progress it holds
  double blocking_s;
  double bytes;       // all levels
  double durable_s;   // on the parallel file system from then; -1 never
};

struct TimelineResult {
  double makespan_s = 0, compute_s = 0, useful_s = 0, blocking_s = 0;
  int64_t checkpoints = 0, failures = 0, restarts = 0, inconsistent_rollbacks = 0;
  double checkpoint_bytes = 0, file_state_bytes = 0;
  std::vector<CheckpointRecord> records;
  double wasted_s() const { return compute_s - useful_s; }
};

TimelineResult run_timeline(const TimelineSetup& setup, Rng& rng);

}  // namespace llsim
