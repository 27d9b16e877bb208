#include "sim/train/sim_training_environment.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/progress_board.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/traffic_ledger.hpp"
#include "sim/sg/wait_ledger.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

XBT_LOG_EXTERNAL_CATEGORY(llsim_train);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_train_sim_training_environment, llsim_train,
                                "training time, failures and I/O replay");

namespace llsim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

struct SimTrainingEnvironment::Operation {
  IoKind kind;
  double share, scale, start;
  bool replayed, others_at_start;
  FileId object = 0;
  std::shared_ptr<CheckpointIo> io;              // replayed
  std::map<std::string, double> waits_at_start;  // replayed, none measured yet: the phase's charges then
  double end   = 0;                              // charged
  bool settled = false;
};

SimTrainingEnvironment::SimTrainingEnvironment(const IoRoute& route, const IoPlan& plan, HostFaults& faults,
                                               IoReplay replay, std::function<bool()> others_running, int64_t keep,
                                               std::string published_as)
    : route_(route)
    , plan_(plan)
    , failures_(faults, route.nodes.first_host, static_cast<size_t>(route.nodes.count))
    , replay_(replay)
    , others_running_(std::move(others_running))
    , keep_(static_cast<size_t>(keep))
    , published_as_(std::move(published_as))
    , writer_of_node_(static_cast<size_t>(route.nodes.count), -1)
{
  for (size_t w = 0; w < plan.writers.size(); ++w)
    writer_of_node_[static_cast<size_t>(plan.writers[w].node)] = static_cast<int64_t>(w);
  const auto next   = failures_.next(llsim::now());
  next_failure_s_   = next.first;
  next_failed_host_ = next.second;
}

SimTrainingEnvironment::~SimTrainingEnvironment() = default;

double SimTrainingEnvironment::now() const
{
  return llsim::now();
}

void SimTrainingEnvironment::failed()
{
  // Every node whose outage starts now fails with the job; the lowest is logged.
  failed_writers_.clear();
  failed_up_s_.clear();
  for (HostId host : failures_.starting_at(next_failure_s_)) {
    const Outage o = route_.faults.next_outage(host, next_failure_s_);  // it may last 0 s
    failed_up_s_.push_back(o.up_s);
    const int64_t writer = writer_of_node_[static_cast<size_t>(host - route_.nodes.first_host)];
    if (writer >= 0)
      failed_writers_.push_back(static_cast<size_t>(writer));
    if (host == next_failed_host_)
      failure_log_.push_back({next_failure_s_, host - route_.nodes.first_host, route_.faults.cause(host, o), o.up_s});
  }
  if (data_)
    data_->drop();  // what the job's loaders held dies with it
  const int64_t node = next_failed_host_ - route_.nodes.first_host;
  XBT_DEBUG("node %ld fails at %g s", static_cast<long>(node), next_failure_s_);
  const auto next   = failures_.next(std::nextafter(next_failure_s_, kInf));
  next_failure_s_   = next.first;
  next_failed_host_ = next.second;
}

bool SimTrainingEnvironment::wait_for_batch(int64_t iteration)
{
  if (data_->wait(iteration, next_failure_s_))
    return true;
  failed();
  return false;
}

bool SimTrainingEnvironment::advance_until(double until)
{
  if (next_failure_s_ < until) {
    sleep_until(next_failure_s_);
    failed();
    return false;
  }
  sleep_until(until);
  return true;
}

StorageService& SimTrainingEnvironment::storage_of(IoKind kind) const
{
  return on_pfs(kind) ? route_.pfs : *route_.local;
}

const SimTrainingEnvironment::Measured* SimTrainingEnvironment::measured(IoKind kind, double share) const
{
  for (const Measured& m : measured_)
    if (m.kind_share == std::make_pair(static_cast<int>(kind), share))
      return &m;
  return nullptr;
}

bool SimTrainingEnvironment::replay(IoKind kind, double share) const
{
  const bool measured = this->measured(kind, share) != nullptr;
  switch (replay_) {
  case IoReplay::Always:
    return true;
  case IoReplay::Once:
    return !measured;
  case IoReplay::Auto:
    return !measured || others_running_();
  }
  return true;
}

const std::vector<std::pair<size_t, double>>& SimTrainingEnvironment::B_per_target(IoKind kind, double share)
{
  auto& cached = B_per_target_[{static_cast<int>(kind), share}];
  if (!cached.empty())
    return cached;
  std::map<size_t, double> per_target;
  const size_t writers = plan_.writers.size();
  for (size_t w = 0; w < writers; ++w) {
    const IoWriter& writer = plan_.writers[w];
    if (kind == IoKind::PfsWrite) {
      for (const auto& p : writer.pieces)
        per_target[p.target] += p.bytes;
      continue;
    }
    const int64_t holder = kind == IoKind::PartnerCopy ? plan_.writers[plan_.partner_of(w)].node : writer.node;
    const auto targets   = route_.local->targets_of(static_cast<size_t>(holder));
    const double bytes   = writer.bytes * (kind == IoKind::PartnerCopy ? share : 1);
    for (size_t t : targets)
      per_target[t] += bytes / static_cast<double>(targets.size());
  }
  cached.assign(per_target.begin(), per_target.end());
  return cached;
}

std::unique_ptr<SimTrainingEnvironment::Operation>
SimTrainingEnvironment::begin(IoKind kind, double share, double scale, const std::set<size_t>& lost)
{
  auto op             = std::make_unique<Operation>();
  op->kind            = kind;
  op->share           = share;
  op->scale           = scale;
  op->start           = llsim::now();
  op->replayed        = replay(kind, share);
  op->others_at_start = others_running_();
  if (is_write(kind))
    op->object = storage_of(kind).new_object();
  checkpoint_ += kind == IoKind::PfsWrite ? 1 : 0;
  if (op->replayed) {
    replays_ += 1;
    if (measured(kind, share) == nullptr)
      op->waits_at_start = phase_waits(phase_tag());  // it may become the measured one
    op->io = CheckpointIo::start(route_, plan_, kind, share, scale, op->object, checkpoint_, lost);
    return op;
  }
  op->end = op->start + measured(kind, share)->seconds * scale;  // replay() ran those not measured
  if (is_write(kind))
    for (const auto& [target, bytes] : B_per_target(kind, share)) {
      const IoOutcome taken = storage_of(kind).account(op->object, target, bytes * scale);
      if (!taken.ok())
        throw SimulationError(taken.message);
    }
  return op;
}

bool SimTrainingEnvironment::finish(Operation& op, double deadline)
{
  if (op.replayed) {
    if (!op.io->wait(deadline)) {
      op.io->cancel();
      if (is_write(op.kind))
        storage_of(op.kind).remove(op.object);
      failed();
      return false;
    }
    if (!op.io->failure().ok())
      throw SimulationError(op.io->failure().message);
  } else if (op.end > deadline) {
    sleep_until(deadline);
    charge(op, deadline);
    if (is_write(op.kind))
      storage_of(op.kind).remove(op.object);
    failed();
    return false;
  } else {
    sleep_until(op.end);
    charge(op, op.end);
  }
  const double end      = op.replayed ? op.io->end_s() : op.end;
  const double duration = end - op.start;
  if (op.replayed) {
    const bool first = measured(op.kind, op.share) == nullptr;
    const bool alone = !op.others_at_start && !others_running_();
    if (first && (alone || replay_ == IoReplay::Once))
      measured_.push_back(
          {{static_cast<int>(op.kind), op.share}, duration / op.scale, waits_since(op.waits_at_start, 1 / op.scale)});
  }
  IoTotals& t = totals_[static_cast<size_t>(op.kind)];
  t.seconds += duration;
  t.count += 1;
  if (is_write(op.kind))
    keep_newest(op.kind, op.object);
  op.settled = true;
  return true;
}

void SimTrainingEnvironment::keep_newest(IoKind kind, FileId object)
{
  std::deque<FileId>& kept = kind == IoKind::PfsWrite ? pfs_objects_ : local_objects_;
  const size_t keep        = kind == IoKind::PfsWrite ? keep_ : (route_.local ? 2 : 1);
  kept.push_back(object);
  if (kind == IoKind::PfsWrite)
    route_.pfs.set_name(published_as_, object);
  while (kept.size() > keep) {
    storage_of(kind).remove(kept.front());
    kept.pop_front();
  }
}

void SimTrainingEnvironment::charge(const Operation& op, double until)
{
  const double moved = op.end > op.start ? std::min(1.0, (until - op.start) / (op.end - op.start)) : 1;
  const double bytes = plan_.total_B() * op.scale * (op.kind == IoKind::PartnerCopy ? op.share : 1) * moved;
  const IoOp io      = is_write(op.kind) ? IoOp::Write : IoOp::Read;
  storage_of(op.kind).charge(io, bytes);
  if (on_pfs(op.kind) && route_.forwarding)
    route_.forwarding->charge(bytes);
  count_charged_traffic(op.kind, bytes);
  // What the operation it stands for was charged: the phase's time at each resource counts every
  // checkpoint, as its bytes and energy do (the measured one's charges include what other work of
  // the phase was charged meanwhile, a data loader's reads).
  for (const auto& [resource, seconds] : measured(op.kind, op.share)->waits)
    charge_wait(resource, seconds * op.scale * moved);
}

// The phase's charges since `before`, times `factor`.
std::map<std::string, double> SimTrainingEnvironment::waits_since(const std::map<std::string, double>& before,
                                                                  double factor)
{
  std::map<std::string, double> out;
  for (const auto& [resource, seconds] : phase_waits(phase_tag())) {
    const auto earlier = before.find(resource);
    const double added = seconds - (earlier == before.end() ? 0 : earlier->second);
    if (added > 0)
      out[resource] = added * factor;
  }
  return out;
}

// The groups a charged operation's bytes cross, as the operation it stands for sent them: the
// nodes, their forwarding nodes, the file system's servers (read the other way); a partner copy
// from the nodes to the node-local service's servers. A node's own disks take no network.
void SimTrainingEnvironment::count_charged_traffic(IoKind kind, double bytes) const
{
  if (kind == IoKind::PartnerCopy) {
    count_group_traffic(route_.nodes, route_.local->servers(), bytes);
    return;
  }
  if (!on_pfs(kind))
    return;
  std::vector<const GroupSpec*> hops{&route_.nodes};
  if (route_.forwarding)
    hops.push_back(&route_.forwarding->servers());
  hops.push_back(&route_.pfs.servers());
  if (!is_write(kind))
    std::reverse(hops.begin(), hops.end());
  for (size_t k = 0; k + 1 < hops.size(); ++k)
    count_group_traffic(*hops[k], *hops[k + 1], bytes);
}

bool SimTrainingEnvironment::io(IoKind kind, double share, double scale, const std::set<size_t>& lost)
{
  auto op = begin(kind, share, scale, lost);
  return finish(*op, next_failure_s_);
}

void SimTrainingEnvironment::start_background(double scale)
{
  background_ = begin(IoKind::PfsWrite, 1, scale, {});
}

double SimTrainingEnvironment::background_end()
{
  if (!background_)
    return -kInf;
  if (!background_->settled) {
    const bool over = background_->replayed ? background_->io->finished() : background_->end <= llsim::now();
    if (!over)
      return background_->replayed ? kInf : background_->end;
    finish(*background_, kInf);  // already over: only books it
  }
  return background_->replayed ? background_->io->end_s() : background_->end;
}

bool SimTrainingEnvironment::wait_background()
{
  if (!background_ || background_->settled)
    return true;
  if (!finish(*background_, next_failure_s_)) {
    background_.reset();
    return false;
  }
  return true;
}

void SimTrainingEnvironment::drop_background()
{
  if (!background_)
    return;
  if (!background_->settled) {
    if (background_->replayed)
      background_->io->cancel();
    else
      charge(*background_, llsim::now());
    storage_of(IoKind::PfsWrite).remove(background_->object);
  }
  background_.reset();
}

double SimTrainingEnvironment::measured_s(IoKind kind)
{
  for (const auto& m : measured_)
    if (m.kind_share.first == static_cast<int>(kind))
      return m.seconds;
  // Never measured (e.g. no restart ever got past its delay): measure it now, failures aside.
  auto op = begin(kind, 1, 1, {});
  op->io  = op->io ? op->io : CheckpointIo::start(route_, plan_, kind, 1, 1, op->object, checkpoint_, {});
  op->io->wait(kInf);
  return op->io->end_s() - op->start;
}

void SimTrainingEnvironment::report(int64_t failures, int64_t restarts)
{
  ProgressBoard::set(route_.name, "failures", static_cast<double>(failures));
  ProgressBoard::set(route_.name, "restarts", static_cast<double>(restarts));
}

}  // namespace llsim
