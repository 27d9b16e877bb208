// The training run as a sequence of iterations, checkpoints, failures and restarts, carried out
// in a TrainingEnvironment. Pure decision logic: the same environment and random stream give
// the same run, and tests can compute it by hand.
//
// - Training computes iterations (durations drawn from `iteration`). Every `interval` of compute
//   (rounded to whole iterations, at least one) it takes a checkpoint. The interval comes from
//   the policy with C the mean blocking time of the checkpoints so far (0 before the first, so
//   Young and Daly take their first checkpoint after one iteration, which measures C) and M the
//   job's MTBF; it is recomputed after every checkpoint.
// - A checkpoint first waits for the previous background write to the parallel file system, if
//   one is still going on, then runs the mode's blocking steps; the file-state bytes are written
//   with its first write. Its blocking time is all of that.
// - With `resume`, the run starts by reading a checkpoint from the parallel file system.
// - A failure (during compute, checkpoints or restarts alike) loses all compute since the
//   newest checkpoint that survives it, restored from the nearest tier holding it: the memory
//   tier's (a mode's MemoryTier: once its partner copies are over, unless a node and its partner
//   were both lost since), the node-local one if the mode can rebuild it given the nodes lost
//   since it was written, else the newest on the parallel file system (a background write or a
//   partner copy in progress is lost). Then `restart_delay` and the recovery I/O. With a
//   node-local checkpoint, writers whose own copy is gone read theirs from where the mode keeps
//   its redundancy (`lost` of TrainingEnvironment::io), never from the failed node.
// - With a memory tier, a checkpoint also waits for the previous snapshot's partner copies.
// - Time: makespan = useful compute + blocking (checkpoints completed) + wasted (compute done
//   again after rollbacks, and checkpoints cut short by a failure) + restarting (from each
//   failure until training goes on again: delays and recovery reads, including restarts cut
//   short by further failures, and the initial read of a resumed job) + maintenance (planned
//   stops and their reads) + data stalls and warm-ups.
// - With a data path (TrainingEnvironment::reads_data), each iteration first waits for its
//   batch: the first wait after the start, a restart or a maintenance stop is the warm-up
//   (data_warmup_s), the others are data stalls (data_stall_s).
// - Before the restart delay, the job needs a full set of hosts: a spare after `swap_s` when one
//   is free, else the failed host's repair (spare_pool.hpp).
// - Planned maintenance, every `maintenance_every_s` from the start: at the first checkpoint
//   after it is due, the job waits for that checkpoint's background write, stops for
//   `maintenance_s` and restarts by reading it from the file system.
// - `give_up_after` failures in a row with no checkpoint and no finish in between: the run
//   cannot progress, and stops with a SimulationError naming the job MTBF, the restart delay and
//   the read time.
#pragma once
#include "sim/core/distribution.hpp"
#include "sim/train/checkpoint_policy.hpp"
#include "sim/train/file_state.hpp"
#include "sim/train/training_environment.hpp"

#include <memory>
#include <vector>

namespace llsim {

struct TrainingSetup {
  double iterations = 0;  // useful iterations to complete
  std::shared_ptr<const Distribution> iteration;
  const CheckpointPolicy* policy    = nullptr;
  const CheckpointMode* mode        = nullptr;
  double checkpoint_B               = 0;  // bytes of one checkpoint on the parallel file system
  const FileStatePolicy* file_state = nullptr;
  FileWorkload files;
  std::shared_ptr<const Distribution> restart_delay;  // drawn at each restart
  int64_t spares             = -1;                    // spare hosts (< 0: unlimited)
  double swap_s              = 0;                     // to bring a spare into the job
  double maintenance_every_s = 0;                     // planned stops (0: none)
  double maintenance_s       = 0;                     // how long each lasts
  bool resume                = false;
  int64_t give_up_after      = 1000;
  size_t writers             = 1;  // of the plan (node-local levels)
  double job_mtbf_s          = 0;
  std::string policy_at;  // where the scenario sets the policy ("file:line:col"), for its errors
};

struct CheckpointRecord {
  int64_t index;
  double start_s, end_s;  // training stops, resumes
  double iteration;       // progress it holds
  double blocking_s;
  double bytes;      // all levels
  double durable_s;  // on the parallel file system from then; -1 never (or not known)
  bool replayed;     // its I/O went through the services
};

// The failures of one cause and the time they cost: the compute each one discarded (rolled back,
// or cut mid-iteration), the checkpoint it cut short, and the time from it until training went
// on or the next failure struck. Over all causes, lost_s adds up to wasted_s + restarting_s
// (less a resumed job's first read).
struct InterruptionTally {
  FaultCause cause;
  int64_t interruptions = 0;
  double lost_s         = 0;
};

struct TrainingResult {
  double makespan_s = 0, compute_s = 0, useful_s = 0, blocking_s = 0;
  double restarting_s = 0, cut_short_checkpoint_s = 0;
  double recovery_read_s = 0;  // the part of restarting_s reading checkpoints back (a resumed job's first included)
  int64_t checkpoints = 0, failures = 0, restarts = 0, inconsistent_rollbacks = 0;
  int64_t restarts_cut_short = 0, checkpoints_cut_short = 0;
  int64_t restores_memory = 0, restores_local = 0, restores_pfs = 0;  // restarts, by the tier read
  double checkpoint_B = 0, file_state_B = 0;
  double interval_s      = 0;  // the last one the policy gave
  double mean_blocking_s = 0;  // C
  std::vector<CheckpointRecord> records;
  std::vector<InterruptionTally> interruptions;  // per cause, in the order each first struck
  int64_t spare_swaps  = 0;                      // failed hosts replaced with a spare
  double host_wait_s   = 0;                      // restarting time spent waiting for a spare or a repair
  double maintenance_s = 0;                      // planned stops, with the reads that restart the job
  double data_stall_s  = 0;                      // iterations waiting for their batch, warm-ups aside
  double data_warmup_s = 0;                      // the first wait after each start or restart
  double wasted_s() const { return compute_s - useful_s + cut_short_checkpoint_s; }
};

// Iteration times are drawn from `iteration_rng`, restart delays from `restart_rng`: streams of
// their own, so that a distribution of one leaves the other's draws as they were.
TrainingResult run_training(const TrainingSetup& setup, TrainingEnvironment& env, Rng& iteration_rng, Rng& restart_rng);

}  // namespace llsim
