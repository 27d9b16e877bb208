#include "sim/svc/metadata.hpp"

#include "sim/core/registry.hpp"
#include "sim/platform/message_time.hpp"
#include "sim/sg/activities.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/timer.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/host_faults.hpp"
#include "sim/svc/metadata_partition.hpp"

#include <algorithm>
#include <cmath>

XBT_LOG_EXTERNAL_CATEGORY(llsim_svc);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_svc_metadata, llsim_svc, "the metadata service");

namespace llsim {

namespace {

const char* const kOpNames[kMetaOps] = {"mkdir", "create", "open", "stat", "readdir", "unlink", "close"};

const ParamTable& ops_params()
{
  // Assumed rates (no per-server figure is published with IO500 entries, REFERENCE.md); give
  // measured ones for the system you plan.
  static const ParamTable t = {
      ParamSpec::quantity("mkdir", Dimension::Rate, "directory creations per second per server (assumption)")
          .defaults("20k/s")
          .positive(),
      ParamSpec::quantity("create", Dimension::Rate, "file creations per second per server (assumption)")
          .defaults("50k/s")
          .positive(),
      ParamSpec::quantity("open", Dimension::Rate, "opens per second per server (assumption)").defaults("100k/s").positive(),
      ParamSpec::quantity("stat", Dimension::Rate, "stats per second per server (assumption)").defaults("200k/s").positive(),
      ParamSpec::quantity("readdir", Dimension::Rate, "directory reads per second per server (assumption)")
          .defaults("20k/s")
          .positive(),
      ParamSpec::quantity("unlink", Dimension::Rate, "removals per second per server (assumption)").defaults("50k/s").positive(),
      ParamSpec::quantity("close", Dimension::Rate, "closes per second per server (assumption)").defaults("200k/s").positive(),
  };
  return t;
}

}  // namespace

const ParamTable& MetadataService::params()
{
  static const ParamTable t = {
    ParamSpec::section("ops", "operations per second one server sustains, by operation").defaults("{}").with_fields(
        ops_params()),
    ParamSpec::text("service_time", "exponential (M/M/c) or constant (M/D/c): how one operation's service time "
                                    "varies around its mean threads / rate")
        .defaults("exponential"),
    ParamSpec::quantity("rpc_size", Dimension::Size, "bytes of a request and of a reply on the network")
        .defaults("1KiB")
        .positive(),
    ParamSpec::section("partition", "which server owns a path {impl: hashed | single}").defaults("{impl: hashed}"),
  };
  return t;
}

const char* meta_op_name(MetaOp op)
{
  return kOpNames[static_cast<size_t>(op)];
}

bool parse_meta_op(const std::string& name, MetaOp* op)
{
  for (size_t i = 0; i < kMetaOps; ++i)
    if (name == kOpNames[i]) {
      *op = static_cast<MetaOp>(i);
      return true;
    }
  return false;
}

struct MetadataService::Call {
  HostId client;
  MetaOp op;
  int64_t count;
  bool wait_if_down;
  double arrives_s;  // when the request reaches the server
  std::function<void(bool ok)> done;
};

MetadataService::MetadataService(const Params& p, const Context& c)
    : Service(p, c), seed_key_(Rng::stream_key(c.seed, "service." + c.name))
{
  const Params ops = p.section("ops", ops_params());
  for (size_t i = 0; i < kMetaOps; ++i)
    rates_[i] = ops.quantity(kOpNames[i]);
  const std::string service_time = p.text("service_time");
  if (service_time != "exponential" && service_time != "constant")
    p.fail("service_time", "expected exponential or constant, got '" + service_time + "'");
  exponential_ = service_time == "exponential";
  rpc_B_       = p.quantity("rpc_size");
  partition_   = Registry<MetadataPartition>::create(p.raw("partition"), {static_cast<size_t>(servers().count)});
}

MetadataService::~MetadataService() = default;

void MetadataService::start(const ServiceRuntime& runtime)
{
  platform_ = &runtime.platform;
  faults_   = &runtime.faults;
  timer_    = &runtime.timer;
  for (int64_t s = 0; s < servers().count; ++s) {
    rngs_.push_back(Rng::keyed(seed_key_, static_cast<uint64_t>(s)));
    pools_.push_back(std::make_unique<ServerPool>(runtime.platform, runtime.faults, servers().host(s), threads(),
                                                  "service '" + name() + "'", stats(static_cast<size_t>(s))));
    pools_.back()->start();
  }
}

size_t MetadataService::server_of(const std::string& path) const
{
  return partition_->server_of(path);
}

double MetadataService::service_time(size_t server, MetaOp op, int64_t count)
{
  const double mean = static_cast<double>(threads()) / rate(op);
  if (!exponential_)
    return mean * static_cast<double>(count);
  double total = 0;
  for (int64_t i = 0; i < count; ++i)
    total += -mean * std::log(1.0 - rngs_[server].uniform());
  return total;
}

void MetadataService::enqueue(size_t server, const std::shared_ptr<Call>& call)
{
  ServerPool& pool = *pools_[server];
  ServerPool::Request r;
  r.arrives_s = call->arrives_s;
  r.serve     = [this, server, call, &pool] {
    if (!pause(service_time(server, call->op, call->count), pool.deadline())) {
      if (call->wait_if_down)
        enqueue(server, call);  // the host is down now: queued until it is back
      else
        timer_->at(now(), [call] { call->done(false); });
      return;
    }
    pool.stats().add(now(), 2 * rpc_B_, static_cast<double>(call->count));  // its request and its reply
    // The reply crosses back to the client.
    timer_->at(now() + leg_s(pool.host(), call->client), [call] { call->done(true); });
  };
  if (!call->wait_if_down)
    r.on_down = [this, call] { timer_->at(now(), [call] { call->done(false); }); };
  pool.submit(std::move(r));
}

void MetadataService::call_async(HostId client, MetaOp op, const std::string& path, int64_t count, bool wait_if_down,
                                 std::function<void(bool ok)> done)
{
  const size_t server = server_of(path);
  const HostId host   = servers().host(static_cast<int64_t>(server));
  XBT_DEBUG("%s: %s %s x%ld on %s", platform_->name(client).c_str(), meta_op_name(op), path.c_str(),
            static_cast<long>(count), platform_->name(host).c_str());
  // The request is queued at once, tagged with its arrival time (the queue takes requests in
  // arrival order; a thread that takes one still on its way waits for it, not busy).
  enqueue(server, std::make_shared<Call>(Call{client, op, count, wait_if_down, now() + leg_s(client, host), std::move(done)}));
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
  const auto key = std::make_pair(platform_->spec().group_of(from).first_host, platform_->spec().group_of(to).first_host);
  const auto it  = leg_s_.find(key);
  if (it != leg_s_.end())
    return it->second;
  return leg_s_[key] = message_time(platform_->spec(), from, to, rpc_B_);
}

}  // namespace llsim

