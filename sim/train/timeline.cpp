#include "sim/train/timeline.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

namespace {

// A point training can restart from: progress in iterations and the compute it took.
struct RestartPoint {
  double iterations = 0;
  double compute_s  = 0;
};

class Timeline {
 public:
  Timeline(const TimelineSetup& s, Rng& rng) : s_(s), rng_(rng), next_failure_(s.failures->next_failure(-1, rng)) {}

  TimelineResult run()
  {
    const double per_checkpoint = std::max(1.0, std::round(s_.interval_s / s_.iteration->mean()));
    while (done_ < s_.iterations) {
      const double target = std::min(s_.iterations, checkpointed_at_ + per_checkpoint);
      if (!compute_until(target))
        continue;  // a failure rolled progress back
      if (done_ >= s_.iterations)
        break;
      checkpoint();
    }
    out_.makespan_s = now_;
    out_.useful_s   = line_.compute_s;
    return out_;
  }

 private:
  // Computes iterations up to `target`; false if a failure struck first.
  bool compute_until(double target)
  {
    while (done_ < target) {
      const double d = s_.iteration->sample(rng_);
      if (now_ + d > next_failure_.time_s) {
        out_.compute_s += next_failure_.time_s - now_;
        fail();
        return false;
      }
      now_ += d;
      out_.compute_s += d;
      line_.compute_s += d;
      since_checkpoint_s_ += d;
      done_ += 1;
      line_.iterations = done_;
    }
    return true;
  }

  // Blocks training until `until`; false if a failure struck first.
  bool block_until(double until)
  {
    if (until > next_failure_.time_s) {
      out_.blocking_s += next_failure_.time_s - now_;
      fail();
      return false;
    }
    out_.blocking_s += until - now_;
    now_ = until;
    return true;
  }

  void settle_background(double at)
  {
    if (persisting_ && persist_done_s_ <= at) {
      pfs_ = persist_point_;
      persisting_ = false;
    }
  }

  void checkpoint()
  {
    const int64_t index = out_.checkpoints + 1;
    if (persisting_ && persist_done_s_ > now_ && !block_until(persist_done_s_))
      return;  // waiting for the previous background write
    settle_background(now_);
    const double written_B   = s_.files.write_Bps * since_checkpoint_s_;
    const double file_B      = s_.file_state->saved_bytes(s_.files, written_B);
    const double rate_Bps    = s_.costs.pfs_write_s > 0 ? s_.checkpoint_B / s_.costs.pfs_write_s : 0;
    const double file_s      = rate_Bps > 0 ? file_B / rate_Bps : 0;
    const double start       = now_;
    if (!block_until(now_ + s_.mode->blocking_s(s_.costs, index) + file_s))
      return;
    out_.checkpoints = index;
    out_.file_state_bytes += file_B + s_.file_state->kept_bytes(s_.files, written_B);
    since_checkpoint_s_ = 0;
    checkpointed_at_    = done_;
    if (s_.mode->needs_local_level())
      local_ = line_;
    const double background = s_.mode->background_s(s_.costs, index);
    double bytes            = s_.mode->local_bytes(s_.checkpoint_B, index) + file_B;
    double durable          = -1;
    if (background >= 0) {
      bytes += s_.checkpoint_B;
      durable = now_ + background;
      if (background == 0) {
        pfs_ = line_;
      } else {
        persisting_     = true;
        persist_point_  = line_;
        persist_done_s_ = durable;
      }
    }
    out_.checkpoint_bytes += bytes;
    out_.records.push_back({index, now_, done_, now_ - start, bytes, durable});
  }

  void fail()
  {
    while (true) {
      now_ = next_failure_.time_s;
      out_.failures += 1;
      out_.restarts += 1;
      settle_background(now_);
      persisting_ = false;  // a write still in progress dies with the job
      const bool from_local = s_.mode->local_survives_node_failure() && local_.iterations > pfs_.iterations;
      const RestartPoint point = from_local ? local_ : pfs_;
      if (!s_.mode->local_survives_node_failure())
        local_ = pfs_;  // the failed node's local copy is gone: the job restarts from the file system
      const bool rolled_back = line_.iterations > point.iterations || since_checkpoint_s_ > 0;
      if (rolled_back && s_.file_state->inconsistent_on_rollback() && s_.files.write_Bps > 0)
        out_.inconsistent_rollbacks += 1;
      line_            = point;
      done_            = point.iterations;
      checkpointed_at_ = done_;
      since_checkpoint_s_ = 0;
      const double read = point.iterations == 0 ? 0
                          : from_local          ? s_.mode->local_recovery_s(s_.costs)
                                                : s_.costs.pfs_read_s;
      const double resume = now_ + s_.restart_delay_s + read;
      next_failure_       = s_.failures->next_failure(now_, rng_);
      if (next_failure_.time_s >= resume) {
        now_ = resume;
        return;
      }
      // Failed again while restarting: restart once more.
    }
  }

  const TimelineSetup& s_;
  Rng& rng_;
  Failure next_failure_;
  TimelineResult out_;
  double now_ = 0, done_ = 0, checkpointed_at_ = 0, since_checkpoint_s_ = 0;
  RestartPoint line_, local_, pfs_;  // current progress; newest local and file-system checkpoints
  bool persisting_       = false;
  RestartPoint persist_point_;
  double persist_done_s_ = 0;
};

}  // namespace

TimelineResult run_timeline(const TimelineSetup& setup, Rng& rng)
{
  return Timeline(setup, rng).run();
}

}  // namespace llsim
