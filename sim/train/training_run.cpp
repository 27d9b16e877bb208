#include "sim/train/training_run.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/train/spare_pool.hpp"
#include "sim/train/training_work.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace llsim {

namespace {

// A point training can restart from: progress in iterations and the compute it took.
struct RestartPoint {
  double iterations = 0;
  double compute_s  = 0;
  bool exists       = false;  // a checkpoint holds it (nothing to read when restarting from scratch)
};

// Where a restart restores from, nearest first.
enum class Tier { Memory, Local, Pfs };

class Run {
 public:
  Run(const TrainingSetup& s, TrainingEnvironment& env, Rng& rng, Rng& restart_rng)
      : s_(s)
      , env_(env)
      , rng_(rng)
      , restart_rng_(restart_rng)
      , memory_tier_(s.mode->memory_tier())
      , spares_(s.spares, s.swap_s)
  {}

  TrainingResult run()
  {
    start_s_            = env_.now();
    next_maintenance_s_ = start_s_ + s_.maintenance_every_s;
    pfs_.exists         = s_.resume;
    update_interval();
    if (s_.resume && !resume())
      fail();
    while (done_ < s_.iterations) {
      const double target = std::min(s_.iterations, checkpointed_at_ + per_checkpoint_);
      if (!compute_until(target)) {
        fail();
        continue;
      }
      if (done_ >= s_.iterations)
        break;
      const double start = env_.now();
      if (!checkpoint()) {
        out_.cut_short_checkpoint_s += env_.now() - start;
        cut_s_ += env_.now() - start;
        out_.checkpoints_cut_short += 1;
        fail();
      } else if (s_.maintenance_every_s > 0 && env_.now() >= next_maintenance_s_ && !maintain()) {
        fail();
      }
    }
    out_.makespan_s  = env_.now() - start_s_;
    out_.useful_s    = line_.compute_s;
    out_.spare_swaps = spares_.swaps();
    return out_;
  }

 private:
  // A planned stop, right after the checkpoint that follows its due time: the background write
  // (if any) completes, the job stops for the maintenance, then restarts reading that checkpoint
  // from the file system. Nothing is lost but the time; false at a failure.
  bool maintain()
  {
    const double start = env_.now();
    const size_t tally = tally_of({"maintenance", FaultClass::Maintenance});
    env_.stop_data();
    const bool finished = (!persisting_ || env_.background_end() <= start || env_.wait_background()) &&
                          env_.advance_until(env_.now() + s_.maintenance_s) &&
                          run_steps({CheckpointStep::write(IoKind::PfsRead)}, 0, {});
    settle_background();
    out_.interruptions[tally].interruptions += 1;
    out_.interruptions[tally].lost_s += env_.now() - start;
    out_.maintenance_s += env_.now() - start;
    warming_up_ = true;
    while (next_maintenance_s_ <= env_.now())
      next_maintenance_s_ += s_.maintenance_every_s;
    return finished;
  }

  // A resumed job's first read counts as restarting time; false at a failure.
  bool resume()
  {
    const double start = env_.now();
    const bool read    = env_.io(IoKind::PfsRead, 1, 1, {});
    out_.restarting_s += env_.now() - start;
    out_.recovery_read_s += env_.now() - start;
    return read;
  }

  void update_interval()
  {
    out_.mean_blocking_s = out_.checkpoints > 0 ? out_.blocking_s / static_cast<double>(out_.checkpoints) : 0;
    out_.interval_s      = s_.policy->interval_s(out_.mean_blocking_s, s_.job_mtbf_s, s_.iteration->mean());
    per_checkpoint_      = std::max(1.0, std::round(out_.interval_s / s_.iteration->mean()));
    if (out_.checkpoints > 0)  // an interval that a checkpoint's cost decides is known from the first
      refuse_excess_checkpoints(s_.policy_at, static_cast<double>(out_.checkpoints), s_.iterations - done_,
                                per_checkpoint_);
  }

  // Computes iterations up to `target`, each once its batch is read; false if a failure struck
  // first. The waits are data stalls, or the warm-up for the first iteration after a (re)start.
  bool compute_with_data(double target)
  {
    for (; done_ < target; done_ += 1, line_.iterations = done_) {
      const auto iteration = static_cast<int64_t>(done_);
      const double waiting = env_.now();
      const bool read      = env_.wait_for_batch(iteration);
      (warming_up_ ? out_.data_warmup_s : out_.data_stall_s) += env_.now() - waiting;
      warming_up_ = false;
      if (!read)
        return false;
      const double duration = s_.iteration->sample(rng_);
      const double begin    = env_.now();
      const bool finished   = env_.advance_until(begin + duration);
      out_.compute_s += env_.now() - begin;
      if (!finished) {
        cut_s_ += env_.now() - begin;  // the iteration a failure cut
        return false;
      }
      line_.compute_s += duration;
      since_checkpoint_s_ += duration;
      env_.batch_done(iteration);
    }
    return true;
  }

  // Computes iterations up to `target`; false if a failure struck first.
  bool compute_until(double target)
  {
    if (env_.reads_data())
      return compute_with_data(target);
    const double begin = env_.now();
    std::vector<double> ends;  // of each iteration, from `begin`
    double total = 0;
    for (double i = done_; i < target; ++i) {
      total += s_.iteration->sample(rng_);
      ends.push_back(total);
    }
    const bool finished = env_.advance_until(begin + total);
    const double spent  = env_.now() - begin;
    const auto completed =
        finished ? ends.size() : static_cast<size_t>(std::upper_bound(ends.begin(), ends.end(), spent) - ends.begin());
    const double useful = completed > 0 ? ends[completed - 1] : 0;
    out_.compute_s += spent;
    cut_s_ += spent - useful;  // the iteration a failure cut
    line_.compute_s += useful;
    since_checkpoint_s_ += useful;
    done_ += static_cast<double>(completed);
    line_.iterations = done_;
    return finished;
  }

  // The snapshot whose partner copies are over becomes the memory tier's.
  void settle_memory()
  {
    if (copying_ && memory_ready_s_ <= env_.now()) {
      memory_  = snapshot_;
      copying_ = false;
      memory_lost_.clear();
    }
  }

  // The tier holding the newest checkpoint that survives the nodes lost since each was written;
  // the nearest one when several hold it.
  Tier nearest_tier() const
  {
    Tier tier = Tier::Pfs;
    double at = pfs_.iterations;
    if (local_.exists && local_.iterations >= at && s_.mode->local_recoverable(lost_, s_.writers)) {
      tier = Tier::Local;
      at   = local_.iterations;
    }
    if (memory_.exists && memory_.iterations >= at &&
        partners_survive(memory_lost_, s_.writers, s_.mode->partner_offset()))
      tier = Tier::Memory;
    return tier;
  }

  // The steps that restore `point` from `tier`: from memory, each replaced node gets its part back
  // from its partner's memory and the copy it held for another node (2 x state over its link, in
  // parallel across nodes), then every node copies its part back to its devices.
  std::vector<CheckpointStep> recovery(Tier tier, const RestartPoint& point) const
  {
    if (!point.exists)
      return {};
    if (tier == Tier::Local)
      return s_.mode->local_recovery();
    if (tier == Tier::Pfs)
      return {CheckpointStep::write(IoKind::PfsRead)};
    std::vector<CheckpointStep> steps;
    if (!memory_lost_.empty())
      steps.push_back(CheckpointStep::pause(2 * memory_tier_.partner_copy_s));
    steps.push_back(CheckpointStep::pause(memory_tier_.snapshot_s));
    return steps;
  }

  // A tier the restart did not use keeps its checkpoint only if it survived the failures.
  void forget_lost_tiers(Tier used)
  {
    if (used != Tier::Local && !s_.mode->local_recoverable(lost_, s_.writers)) {
      local_ = RestartPoint{};
      lost_.clear();
    }
    if (used != Tier::Memory && !partners_survive(memory_lost_, s_.writers, s_.mode->partner_offset())) {
      memory_ = RestartPoint{};
      memory_lost_.clear();
    }
  }

  void settle_background()
  {
    if (persisting_ && env_.background_end() <= env_.now()) {
      pfs_                                    = persist_point_;
      persisting_                             = false;
      out_.records[persist_record_].durable_s = env_.background_end();
    }
  }

  // Runs steps; the first write also carries `extra_B` bytes (file state). False at a failure.
  bool run_steps(const std::vector<CheckpointStep>& steps, double extra_B, const std::set<size_t>& lost)
  {
    for (const auto& step : steps) {
      if (!step.is_io) {
        if (!env_.advance_until(env_.now() + step.pause_s))
          return false;
        continue;
      }
      const double step_B = step.share * s_.checkpoint_B;
      const double scale  = step_B > 0 ? 1 + extra_B / step_B : 1;
      extra_B             = 0;
      if (!env_.io(step.io, step.share, scale, lost))
        return false;
    }
    return true;
  }

  bool checkpoint()
  {
    const int64_t index   = out_.checkpoints + 1;
    const double start    = env_.now();
    const int64_t replays = env_.replays();
    if (persisting_ && env_.background_end() > env_.now() && !env_.wait_background())
      return false;  // waiting for the previous background write
    settle_background();
    if (copying_ && !env_.advance_until(std::max(env_.now(), memory_ready_s_)))
      return false;  // waiting for the previous snapshot's partner copies
    settle_memory();
    const auto steps                = s_.mode->blocking(index);
    const bool writes_while_blocked = std::any_of(steps.begin(), steps.end(), [](const auto& st) { return st.is_io; });
    // A checkpoint that writes nothing (host memory only) saves no file state: the files written
    // since are saved with the next checkpoint that writes.
    const bool saves_files = writes_while_blocked || s_.mode->background_pfs(index);
    const double written_B = s_.files.write_Bps * (unsaved_s_ + since_checkpoint_s_);
    const double file_B    = saves_files ? s_.file_state->saved_B(s_.files, written_B) : 0;
    if (!run_steps(steps, writes_while_blocked ? file_B : 0, {}))
      return false;
    const double blocking = env_.now() - start;
    out_.checkpoints      = index;
    out_.blocking_s += blocking;
    out_.file_state_B += saves_files ? file_B + s_.file_state->kept_B(s_.files, written_B) : 0;
    unsaved_s_          = saves_files ? 0 : unsaved_s_ + since_checkpoint_s_;
    since_checkpoint_s_ = 0;
    checkpointed_at_    = done_;
    if (s_.mode->writes_local(index)) {
      local_        = line_;
      local_.exists = true;
      lost_.clear();
    }
    double bytes   = s_.mode->local_B(s_.checkpoint_B, index) + file_B;
    double durable = -1;
    if (s_.mode->reaches_pfs(index))
      bytes += s_.checkpoint_B;
    RestartPoint point = line_;
    point.exists       = true;
    if (memory_tier_.on) {
      snapshot_       = point;
      memory_ready_s_ = env_.now() + memory_tier_.partner_copy_s;
      copying_        = true;
      settle_memory();
    }
    if (s_.mode->background_pfs(index)) {
      env_.start_background(writes_while_blocked ? 1 : 1 + file_B / s_.checkpoint_B);
      persisting_     = true;
      persist_point_  = point;
      persist_record_ = out_.records.size();
    } else if (s_.mode->reaches_pfs(index)) {
      pfs_    = point;
      durable = env_.now();
    }
    out_.checkpoint_B += bytes;
    out_.records.push_back({index, start, env_.now(), done_, blocking, bytes, durable, env_.replays() > replays});
    failures_in_a_row_ = 0;
    update_interval();
    settle_background();  // a charged background write may already be over
    return true;
  }

  [[noreturn]] void give_up()
  {
    const double read_s   = env_.measured_s(s_.mode->needs_local_level() ? IoKind::LocalRead : IoKind::PfsRead);
    const std::string why = "job MTBF " + readable_duration(s_.job_mtbf_s) + ", mean restart delay " +
                            readable_duration(s_.restart_delay->mean()) + ", checkpoint read " +
                            readable_duration(read_s);
    throw SimulationError("training cannot progress: " + std::to_string(out_.failures) + " failures, the last " +
                          std::to_string(s_.give_up_after) + " in a row without a checkpoint or the end of training (" +
                          why +
                          "): raise the nodes' MTBF, shorten the restart, or checkpoint more often "
                          "(restart.give_up_after sets how many failures in a row end the run)");
  }

  // The index of the tally of `cause`.
  size_t tally_of(const FaultCause& cause)
  {
    for (size_t i = 0; i < out_.interruptions.size(); ++i)
      if (out_.interruptions[i].cause.name == cause.name &&
          out_.interruptions[i].cause.fault_class == cause.fault_class)
        return i;
    out_.interruptions.push_back({cause, 0, 0});
    return out_.interruptions.size() - 1;
  }

  // Waits for a full set of hosts, then the restart delay; false when a failure struck first.
  bool wait_to_restart()
  {
    const double hosts_ready = spares_.replace_all(env_.now(), env_.failed_nodes_up_s());
    if (hosts_ready > env_.now()) {
      const double from = env_.now();
      const bool ready  = env_.advance_until(hosts_ready);
      out_.host_wait_s += env_.now() - from;
      if (!ready)
        return false;
    }
    return env_.advance_until(env_.now() + s_.restart_delay->sample(restart_rng_));
  }

  void fail()
  {
    const double failed_at = env_.now();
    while (true) {
      const double struck = env_.now();
      const size_t tally  = tally_of(env_.failure_cause());
      double lost         = cut_s_;
      cut_s_              = 0;
      const auto charge   = [&] {
        out_.interruptions[tally].interruptions += 1;
        out_.interruptions[tally].lost_s += lost + env_.now() - struck;
      };
      out_.failures += 1;
      failures_in_a_row_ += 1;
      env_.report(out_.failures, out_.restarts);
      if (failures_in_a_row_ >= s_.give_up_after)
        give_up();
      settle_background();
      if (persisting_) {
        env_.drop_background();  // a write still in progress dies with the job
        persisting_ = false;
      }
      settle_memory();
      copying_ = false;  // a snapshot whose partner copies are not over is lost
      for (size_t writer : env_.failed_writers()) {
        lost_.insert(writer);
        memory_lost_.insert(writer);
      }
      const Tier tier          = nearest_tier();
      const RestartPoint point = tier == Tier::Memory ? memory_ : tier == Tier::Local ? local_ : pfs_;
      forget_lost_tiers(tier);
      lost += line_.compute_s - point.compute_s;
      const bool rolled_back = line_.iterations > point.iterations || since_checkpoint_s_ > 0;
      if (rolled_back && s_.file_state->inconsistent_on_rollback() && s_.files.write_Bps > 0)
        out_.inconsistent_rollbacks += 1;
      line_               = point;
      done_               = point.iterations;
      checkpointed_at_    = done_;
      since_checkpoint_s_ = 0;
      unsaved_s_          = 0;
      if (!wait_to_restart()) {
        out_.restarts_cut_short += 1;  // failed again while restarting
        charge();
        continue;
      }
      const double reading = env_.now();
      const bool recovered = run_steps(recovery(tier, point), 0, tier == Tier::Local ? lost_ : std::set<size_t>{});
      out_.recovery_read_s += env_.now() - reading;
      if (!recovered) {
        out_.restarts_cut_short += 1;
        charge();
        continue;
      }
      if (tier != Tier::Pfs)
        (tier == Tier::Local ? lost_ : memory_lost_).clear();  // the lost parts were rebuilt from the partners
      if (point.exists)
        (tier == Tier::Memory  ? out_.restores_memory
         : tier == Tier::Local ? out_.restores_local
                               : out_.restores_pfs) += 1;
      charge();
      out_.restarting_s += env_.now() - failed_at;
      out_.restarts += 1;
      warming_up_ = true;
      env_.report(out_.failures, out_.restarts);
      return;
    }
  }

  const TrainingSetup& s_;
  TrainingEnvironment& env_;
  Rng& rng_;
  Rng& restart_rng_;
  TrainingResult out_;
  double start_s_ = 0, done_ = 0, checkpointed_at_ = 0, since_checkpoint_s_ = 0, per_checkpoint_ = 1;
  double unsaved_s_ = 0;             // compute before the last checkpoint whose files no checkpoint saved yet
  RestartPoint line_, local_, pfs_;  // current progress; newest node-local and file-system checkpoints
  std::set<size_t> lost_;            // writers whose node-local copy of local_ is gone
  const MemoryTier memory_tier_;
  RestartPoint memory_, snapshot_;  // the memory tier's usable checkpoint; the one being copied
  double memory_ready_s_ = 0;       // when the snapshot's partner copies are over
  bool copying_          = false;
  std::set<size_t> memory_lost_;  // writers whose own memory copy of memory_ is gone
  bool persisting_ = false;
  RestartPoint persist_point_;
  size_t persist_record_     = 0;
  int64_t failures_in_a_row_ = 0;
  double cut_s_              = 0;  // compute and checkpoint time the failure now due cut short
  double next_maintenance_s_ = 0;
  bool warming_up_           = true;  // the next batch wait is the first since a (re)start
  SparePool spares_;
};

}  // namespace

TrainingResult run_training(const TrainingSetup& setup, TrainingEnvironment& env, Rng& iteration_rng, Rng& restart_rng)
{
  return Run(setup, env, iteration_rng, restart_rng).run();
}

}  // namespace llsim
