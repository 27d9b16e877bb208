// Service kind `metadata` (sim/svc/metadata.hpp documents it), registered at the bottom of this file.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/metadata_queue.yaml --set phases.probe.count=1000

#include "sim/svc/metadata.hpp"

#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/platform/message_time.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/timer.hpp"
#include "sim/sg/wait_ledger.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/journal_checkpoint.hpp"
#include "sim/svc/meta_path.hpp"

#include <algorithm>
#include <cmath>

XBT_LOG_EXTERNAL_CATEGORY(llsim_svc);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_svc_metadata, llsim_svc, "the metadata service");

namespace llsim {

namespace {

const ParamTable& ops_params()
{
  // Assumed rates (no per-server figure is published with IO500 entries); give
  // measured ones for the system you plan.
  static const ParamTable t = {
      ParamSpec::quantity("mkdir", Dimension::Rate, "directory creations per second per server (assumption)")
          .defaults("20k/s")
          .positive(),
      ParamSpec::quantity("create", Dimension::Rate, "file creations per second per server (assumption)")
          .defaults("50k/s")
          .positive(),
      ParamSpec::quantity("open", Dimension::Rate, "opens per second per server (assumption)")
          .defaults("100k/s")
          .positive(),
      ParamSpec::quantity("stat", Dimension::Rate, "stats and path lookups per second per server (assumption)")
          .defaults("200k/s")
          .positive(),
      ParamSpec::quantity("readdir", Dimension::Rate, "directory reads per second per server (assumption)")
          .defaults("20k/s")
          .positive(),
      ParamSpec::quantity("unlink", Dimension::Rate, "removals per second per server (assumption)")
          .defaults("50k/s")
          .positive(),
      ParamSpec::quantity("close", Dimension::Rate, "closes per second per server (assumption)")
          .defaults("200k/s")
          .positive(),
  };
  return t;
}

const ParamTable& device_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("write", Dimension::Bandwidth, "write bandwidth of the log device").positive(),
      ParamSpec::quantity("read", Dimension::Bandwidth, "read bandwidth of the log device (checkpoint scans)")
          .positive(),
      ParamSpec::quantity("latency", Dimension::Duration,
                          "time of one log write before its bytes move "
                          "(HDD ~4ms, SATA SSD ~50us, NVM ~1us)")
          .at_least(0),
  };
  return t;
}

const ParamTable& journal_params()
{
  static const ParamTable t = {
      ParamSpec::section("device", "the log device of each server {write, read, latency}").with_fields(device_params()),
      ParamSpec::quantity("record", Dimension::Size, "journal bytes per mutating operation")
          .defaults("512B")
          .positive(),
      ParamSpec::quantity("block", Dimension::Size, "home block a checkpoint writes in one I/O")
          .defaults("4KiB")
          .positive(),
      ParamSpec::choice<JournalCheckpoint>("checkpoint", "writing the journal home {impl, every}")
          .defaults("{impl: forward}"),
  };
  return t;
}

}  // namespace

const ParamTable& MetadataService::params()
{
  static const ParamTable t = {
      ParamSpec::section("ops", "operations per second one server sustains, by operation")
          .defaults("{}")
          .with_fields(ops_params()),
      ParamSpec::one_of("service_time", {"exponential", "constant"},
                        "exponential (M/M/c) or constant (M/D/c): how one operation's service time "
                        "varies around its mean threads / rate")
          .defaults("exponential"),
      ParamSpec::quantity("rpc_size", Dimension::Size, "bytes of a request and of a reply on the network")
          .defaults("1KiB")
          .positive(),
      ParamSpec::choice<MetadataModel>("model", "where the namespace lives and what an operation costs in RPCs {impl}")
          .defaults("{impl: hashed}"),
      ParamSpec::quantity("inode_bytes", Dimension::Size,
                          "metadata bytes per file or directory, entries included "
                          "(7 TB for 10 B files)")
          .defaults("700B")
          .positive(),
      ParamSpec::section("journal", "persistence of mutating operations on a log device, checkpointed to the "
                                    "servers' disks (absent: none)")
          .may_be_absent()
          .with_fields(journal_params()),
  };
  return t;
}

MetadataService::MetadataService(const Params& p, const Context& c)
    : Service(p, c)
    , seed_key_(Rng::stream_key(c.seed, "service." + c.name))
    , queue_resource_(wait_resource(c.name + " metadata queue"))
    , service_resource_(wait_resource(c.name + " metadata service"))
    , journal_resource_(wait_resource(c.name + " journal"))
    , network_resource_(wait_resource("network"))
{
  const Params ops = p.section("ops", ops_params());
  for (size_t i = 0; i < kMetaOps; ++i)
    rates_[i] = ops.quantity(meta_op_name(static_cast<MetaOp>(i)));
  exponential_      = p.text("service_time") == "exponential";
  rpc_B_            = p.quantity("rpc_size");
  inode_B_          = p.quantity("inode_bytes");
  model_            = Registry<MetadataModel>::create(p.raw("model"), {static_cast<size_t>(servers().count)});
  const auto& disks = servers().disks;
  room_B_           = disks ? static_cast<double>(disks->count) * disks->capacity_B : servers().memory_B;
  if (p.has("journal")) {
    const Params j = p.section("journal", journal_params());
    if (!disks)
      p.fail("journal",
             "a journal is checkpointed to the servers' disks, and group '" + servers().name + "' has no 'disks'");
    const Params d = j.section("device", device_params());
    JournalSpec spec;
    spec.log        = {d.quantity("read"), d.quantity("write"), d.quantity("latency")};
    spec.record_B   = j.quantity("record");
    spec.block_B    = j.quantity("block");
    spec.checkpoint = Registry<JournalCheckpoint>::create(j.raw("checkpoint"), {});
    spec.every_B    = spec.checkpoint->every_B();
    spec.home       = *disks;
    journal_spec_   = spec;
  }
}

MetadataService::~MetadataService() = default;

void MetadataService::start(const ServiceRuntime& runtime)
{
  platform_ = &runtime.platform;
  faults_   = &runtime.faults;
  timer_    = &runtime.timer;
  for (int64_t s = 0; s < servers().count; ++s) {
    rngs_.push_back(Rng::keyed(seed_key_, static_cast<uint64_t>(s)));
    threads_.emplace_back(threads());
    deferred_.emplace_back(stats(static_cast<size_t>(s)));
    if (journal_spec_)
      journals_.push_back(std::make_unique<MetadataJournal>(*journal_spec_));
  }
  inodes_.assign(static_cast<size_t>(servers().count), 0);
}

double MetadataService::service_time(size_t server, MetaOp op, int64_t count)
{
  const double mean = static_cast<double>(threads()) / rate(op);
  if (!exponential_)
    return mean * static_cast<double>(count);
  return sum_of_exponentials(rngs_[server], count, mean);
}

MetadataService::Slot MetadataService::serve(size_t server, double arrives, MetaOp op, int64_t scale, bool wait_if_down)
{
  FifoThreads& threads = threads_[server];
  const HostId host    = servers().host(static_cast<int64_t>(server));
  double start         = std::max(arrives, threads.next_free());
  const double busy_s  = service_time(server, op, scale);
  while (faults_->may_fail(host)) {
    const Outage o = faults_->outage_at(host, start);
    if (o.down_s <= start) {  // down when it would start: nothing is served until it is back
      if (!wait_if_down)
        return {false, start, std::max(arrives, o.down_s)};
      start = o.up_s;
    } else if (o.down_s < start + busy_s) {  // fails while serving it: the work is lost
      threads.occupy(o.down_s);
      if (!wait_if_down)
        return {false, start, o.down_s};
      start = std::max(o.up_s, threads.next_free());
    } else {
      break;
    }
  }
  threads.occupy(start + busy_s);
  return {true, start, start + busy_s};
}

bool MetadataService::take_room(size_t server, const MetaRpc& rpc, int64_t scale)
{
  const double added = static_cast<double>(rpc.inodes * scale);
  if (room_B_ > 0 && added > 0 && (inodes_[server] + added) * inode_B_ > room_B_) {
    if (capacity_error_.empty())
      capacity_error_ =
          "metadata service '" + name() + "': server " + platform_->name(servers().host(static_cast<int64_t>(server))) +
          " would hold " + format_bytes((inodes_[server] + added) * inode_B_) + " of metadata (" +
          format_number(inodes_[server] + added) + " inodes of " + format_bytes(inode_B_) + ") but has room for " +
          format_bytes(room_B_) + " (its " + (servers().disks ? "disks" : "memory") + ")";
    return false;
  }
  inodes_[server] = std::max(0.0, inodes_[server] + added);
  return true;
}

void MetadataService::submit(HostId client, const MetaRpc& rpc, int64_t scale, bool wait_if_down,
                             std::function<void(bool ok)> done)
{
  const size_t server  = rpc.server;
  const HostId host    = servers().host(static_cast<int64_t>(server));
  const double leg     = leg_s(client, host) * static_cast<double>(scale);
  const double sent    = now();
  DeferredStats& stats = deferred_[server];
  stats.apply_until(sent);
  if (!take_room(server, rpc, scale)) {
    timer_->at(sent, [done] { done(false); });
    return;
  }
  XBT_DEBUG("%s: %s x%ld on %s", platform_->name(client).c_str(), meta_op_name(rpc.op), static_cast<long>(scale),
            platform_->name(host).c_str());
  const Slot slot = serve(server, sent + leg, rpc.op, scale, wait_if_down);
  // Its time in the queue, then in a thread.
  const double arrives = sent + leg;
  stats.change(arrives, 1, 0);
  if (!slot.ok) {
    const bool started = slot.start_s < slot.end_s;  // else it failed waiting
    if (started) {
      stats.change(slot.start_s, -1, 1);
      stats.change(slot.end_s, 0, -1);
    } else {
      stats.change(std::max(arrives, slot.end_s), -1, 0);
    }
    inodes_[server] = std::max(0.0, inodes_[server] - static_cast<double>(rpc.inodes * scale));
    timer_->at(slot.end_s, [done] { done(false); });
    return;
  }
  stats.change(slot.start_s, -1, 1);
  stats.change(slot.end_s, 0, -1, 2 * rpc_B_ * static_cast<double>(scale), static_cast<double>(scale));
  // The wait is known now (the queue is computed in closed form): charged to the caller's phase.
  const int phase = phase_tag();
  charge_wait_to(phase, queue_resource_, slot.start_s - arrives);
  charge_wait_to(phase, service_resource_, slot.end_s - slot.start_s);
  charge_wait_to(phase, network_resource_, 2 * leg);
  // The reply crosses back to the client, once the record is durable when the operation is
  // journalled.
  double answered = slot.end_s;
  if (journal_spec_ && meta_op_mutates(rpc.op))
    answered = journals_[server]->append(slot.end_s, rpc.dir_key, static_cast<double>(scale));
  charge_wait_to(phase, journal_resource_, answered - slot.end_s);
  timer_->at(answered + leg, [done = std::move(done)] { done(true); });
}

void MetadataService::call_async(HostId client, MetaOp op, const std::string& path, int64_t count, bool wait_if_down,
                                 std::function<void(bool ok)> done)
{
  const MetaRpc rpc{server_of(path), op, inode_change(op), path_hash(parent_dir(path))};
  submit(client, rpc, count, wait_if_down, std::move(done));
}

bool MetadataService::call(HostId client, MetaOp op, const std::string& path, int64_t count, double deadline,
                           bool wait_if_down)
{
  struct Reply {
    bool over = false, ok = false;
    WaitPoint arrived;
  };
  auto reply = std::make_shared<Reply>();
  call_async(client, op, path, count, wait_if_down, [reply](bool ok) {
    reply->over = true;
    reply->ok   = ok;
    reply->arrived.notify_all();
  });
  return reply->arrived.wait_until([&reply] { return reply->over; }, deadline) && reply->ok;
}

double MetadataService::leg_s(HostId from, HostId to)
{
  // Routes between groups are the same for every pair of their hosts: one computation per pair
  // of groups.
  const auto key =
      std::make_pair(platform_->spec().group_of(from).first_host, platform_->spec().group_of(to).first_host);
  const auto it = leg_s_.find(key);
  if (it != leg_s_.end())
    return it->second;
  return leg_s_[key] = message_time(platform_->spec(), from, to, rpc_B_);
}

void MetadataService::before_finish(double end_s)
{
  for (auto& d : deferred_)
    d.apply_until(end_s);
}

double MetadataService::metadata_B() const
{
  double total = 0;
  for (double n : inodes_)
    total += n * inode_B_;
  return total;
}

double MetadataService::max_server_metadata_B() const
{
  double most = 0;
  for (double n : inodes_)
    most = std::max(most, n * inode_B_);
  return most;
}

double MetadataService::journal_B() const
{
  double total = 0;
  for (const auto& j : journals_)
    total += j->journal_B();
  return total;
}

double MetadataService::home_write_B() const
{
  double total = 0;
  for (const auto& j : journals_)
    total += j->home_B();
  return total;
}

namespace {

const MetricTable kMetadataMetrics =
    joined(Service::common_metrics(),
           {
               {"metadata_bytes", MetricUnit::Bytes,
                "bytes of inodes the servers hold at the end of the run (inode_bytes each)"},
               {"max_server_metadata_bytes", MetricUnit::Bytes, "the most bytes of inodes one server holds at the end"},
               {"journal_bytes", MetricUnit::Bytes, "bytes of records the servers journalled (0 without `journal`)"},
               {"home_write_bytes", MetricUnit::Bytes,
                "bytes the journal checkpoints wrote to the servers' disks (0 without `journal`)"},
           });

}  // namespace

LLSIM_DECLARE_METRICS(Service, MetadataService::kKind, kMetadataMetrics);

Metrics MetadataService::totals() const
{
  Metrics m = Service::totals();
  m.push_back({"metadata_bytes", metadata_B()});
  m.push_back({"max_server_metadata_bytes", max_server_metadata_B()});
  m.push_back({"journal_bytes", journal_B()});
  m.push_back({"home_write_bytes", home_write_B()});
  return m;
}

LLSIM_REGISTER(Service, "metadata", MetadataService, "metadata servers with per-operation rates (M/M/c)",
               MetadataService::params());

}  // namespace llsim
