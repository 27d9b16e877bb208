// One serving instance in the simulation: an actor on its host that runs the batcher's
// iterations back to back while it has work, each lasting what its iteration model says
// (set_iteration_model) or what a custom `run_iteration` takes (FastDecode moves data over the
// network as well). Token events go to the tally; a sequence a prefill instance is done with
// goes to `on_handoff`.
//
// With an iteration model, runs of identical decode iterations (Batcher::steady_decode_steps)
// take one wait instead of one per iteration: the instance sleeps until the last of them ends
// or a sequence is submitted, whichever comes first, then applies the iterations that ended by
// then (the one under way included), each at its own end time. The results are those of
// iterating one by one; only the number of simulation events shrinks.
//
// Host faults: an instance runs on its hosts (its GPU host, and for FastDecode its R-workers)
// and is up while all of them are. When one fails, the instance loses what its memory held:
// the iteration under way, every sequence running or queued (each request ends as failed) and
// its prefix cache. It takes nothing until all its hosts are up again, then starts empty. A
// sequence submitted while it is down is lost too. A custom `run_iteration` (FastDecode's)
// notices a failure at the iteration's end.
//
// Weights (set_weights): the instance reads them before it serves, at its start and each time
// its hosts are up again after a failure (a failure while it is idle too). Sequences submitted
// while it loads wait in its queue; a failure during the load loses them and starts the load
// over. Without set_weights the instance starts with its weights in place and an outage's
// downtime stands for their reloading.
//
// Preemption by swap: the KV an iteration's plan swaps out or in moves before the iteration
// computes: over PCIe within its time, or through a swap pool (set_swap_pool), one sequence after
// the other. A sequence whose KV the pool rejected or no longer holds is recomputed.
#pragma once
#include "sim/platform/platform_spec.hpp"
#include "sim/serve/engine/batcher.hpp"
#include "sim/serve/engine/instance_swaps.hpp"
#include "sim/serve/engine/instance_weights.hpp"
#include "sim/serve/engine/load_order.hpp"
#include "sim/serve/engine/serve_tally.hpp"
#include "sim/serve/engine/token_timeline.hpp"
#include "sim/serve/weights/weight_source.hpp"
#include "sim/sg/actors.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

class HostFaults;
class KvSwapPool;
class Platform;
class WaitPoint;

class ServeInstance : public BatchListener {
 public:
  // Blocks for one iteration of `work`; returns the seconds its GPUs were busy.
  using RunIteration = std::function<double(const BatchWork& work)>;

  ServeInstance(int index, HostId host, const BatcherConfig& config, InstanceRole role, ServeTally& tally);
  ~ServeInstance() override;

  void set_iteration_model(const IterationModel& model) { model_ = &model; }
  void set_run_iteration(RunIteration run) { run_ = std::move(run); }
  void set_on_handoff(std::function<void(int64_t id)> f) { on_handoff_ = std::move(f); }
  // Called after a sequence's last token is out (the tally has it already).
  void set_on_finished(std::function<void(int64_t id)> f) { on_finished_ = std::move(f); }
  // Called after a sequence was lost to a failure (the tally has it already).
  void set_on_lost(std::function<void(int64_t id)> f) { on_lost_ = std::move(f); }
  // The hosts whose failures stop the instance (its own host unless told otherwise).
  void set_faults(HostFaults& faults, std::vector<HostId> hosts);
  // Preemption by swap moves KV through `pool` (else to the host's CPU memory over PCIe).
  void set_swap_pool(KvSwapPool& pool) { swaps_.set_pool(pool); }
  // Reads `target`'s weights from `source` before serving, each load recorded in `loads`.
  void set_weights(WeightSource& source, const WeightTarget& target, LoadTally& loads);
  // An engine of a pipeline-parallel instance: it loads with the instance's other engines
  // (after set_weights).
  void share_weights(std::shared_ptr<WeightShare> share) { weights_->share(std::move(share)); }

  // Inside the simulation: starts the actor (and its wake-up point).
  void start(const Platform& platform, const std::string& label);
  // `expected`: announced earlier with expect() (a sequence on its way).
  void submit(const SeqArrival& s, bool expected = false);
  // Its set's order of loads, kept as its load changes, where it is instance `slot`.
  void set_load_order(LoadOrder& order, int slot)
  {
    load_order_ = &order;
    load_slot_  = slot;
  }
  void expect()
  {
    incoming_ += 1;
    note_load();
  }
  // A sequence announced with expect() that will not come: it was lost on its way.
  void lose_incoming(int64_t id);
  // Whether all of its hosts are up now.
  bool up() const;
  // Allocated, provisioned and up: a router may send it requests (it serves them once loaded).
  bool accepting() const;
  // Allocated, up, with its weights loaded: it computes what it is sent.
  bool serving() const { return allocated_ && loaded_ && up(); }

  // Autoscaling. A released instance takes no more requests, finishes those it has, then gives
  // its GPUs back (its weights and prefix cache with them). allocate() brings it back: at once
  // if it had not given them back yet, else after `provisioning_s`, then it loads its weights.
  // held_seconds(): the time it held its GPUs, up to the last stop_holding().
  void allocate(double provisioning_s);
  void release();
  void start_released();  // before start(): it holds no GPUs until allocated
  bool allocated() const { return allocated_; }
  bool holds_gpus() const { return held_; }
  void stop_holding();  // the phase ended: its time is counted up to now
  double held_seconds() const { return held_s_; }
  double busy_seconds() const { return tally_.busy_seconds(index_); }  // its GPUs' busy time (iterations and KV moves)
  // What its iterations asked of its GPUs (IterationModel::gpu_use): KV moves count as none.
  const GpuUse& gpu_use() const { return gpu_use_; }
  void add_gpu_use(const GpuUse& use) { gpu_use_ += use; }  // for a custom run_iteration
  // When the first of its hosts fails from now on (+inf: never).
  double next_failure() const;
  // Forgets the prefix cache if a host failed while the instance was idle (it notices at its
  // next iteration; a scheduler reading the cache before that calls this first).
  void notice_idle_failure();
  void close();  // no more work comes: the actor ends once idle
  void join() { actor_.join(); }

  int index() const { return index_; }
  HostId host() const { return host_; }
  const Batcher& batcher() const { return batcher_; }
  // Sequences running, queued or on their way.
  int64_t load() const { return batcher_.running() + batcher_.waiting() + incoming_; }

  void first_token(int64_t id) override { tally_.first_token(id, event_time_); }
  void decoded(int64_t id, int64_t from, int64_t tokens) override { tally_.tokens(id, timeline_.from(from), tokens); }
  void finished(int64_t id) override;
  void handed_off(int64_t id) override;
  void prefix_hit(int64_t id, int64_t blocks) override { tally_.prefix_hit(id, blocks); }

 private:
  void loop();
  void iterate_once(double fail_at);
  void complete_iteration(double end_s);  // the batcher's, its tokens out at end_s
  void note_load()
  {
    if (load_order_ != nullptr)
      load_order_->set(load_slot_, load());
  }
  // Charges an iteration that kept the GPUs `seconds`: its request-seconds to the GPU's compute or
  // HBM bandwidth (wait_ledger.hpp) and its load (gpu_load_seconds).
  void charge_gpu(const BatchWork& work, double seconds);
  void iterate_steady(int64_t steps, double fail_at);
  void lose(int64_t id);
  // Client timeouts (workload.client_timeout): a sequence whose client gave up, and those
  // aborted between iterations (after the iteration under way when the timeout passed).
  void end_timed_out(int64_t id);
  void abort_timed_out();
  void fail();          // a host failed now: everything held is lost; returns when all hosts are up
  void load_weights();  // until loaded (started over after each failure), released or closed
  bool stops_loading() const { return closed_ || (!allocated_ && batcher_.idle()); }
  void give_back();            // its GPUs, weights and cache
  bool wait_for_allocation();  // false: closed first

  int index_;
  HostId host_;
  Batcher batcher_;
  ServeTally& tally_;
  const IterationModel* model_ = nullptr;
  RunIteration run_;
  double event_time_ = 0;            // when the iteration being completed ended (first tokens, finishes)
  std::vector<double> steady_ends_;  // the end times of the steady decode iterations under way
  TokenTimeline timeline_;           // the end times of its iterations, for tokens told later
  // When the last iteration ended: the next one that starts then follows it (BatchWork::follows_step).
  double last_step_end_ = -1;
  int64_t submitted_    = 0;
  std::function<void(int64_t)> on_handoff_;
  std::function<void(int64_t)> on_finished_;
  std::function<void(int64_t)> on_lost_;
  HostFaults* faults_ = nullptr;
  std::vector<HostId> fault_hosts_;  // those of them that may fail
  double checked_s_ = 0;             // no failure before this time went unnoticed
  std::unique_ptr<WaitPoint> wake_;
  InstanceSwaps swaps_;
  std::unique_ptr<InstanceWeights> weights_;  // null: its weights are in place from the start
  bool loaded_         = true;
  bool allocated_      = true;
  bool held_           = true;  // its GPUs, from held_since_s_
  double held_since_s_ = 0, held_s_ = 0, provisioned_at_s_ = 0;
  GpuUse gpu_use_;
  bool closed_           = false;
  int64_t incoming_      = 0;
  LoadOrder* load_order_ = nullptr;
  int load_slot_         = 0;
  Actor actor_;
};

}  // namespace llsim
