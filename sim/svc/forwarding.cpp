// Service kind `forwarding` (sim/svc/forwarding.hpp documents it), registered at the bottom of this file.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/train_symmetric.yaml

#include "sim/svc/forwarding.hpp"

#include "sim/core/registry.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/directory.hpp"

#include <algorithm>

XBT_LOG_EXTERNAL_CATEGORY(llsim_svc);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_svc_forwarding, llsim_svc, "the forwarding service");

namespace llsim {

const ParamTable& ForwardingService::params()
{
  static const ParamTable t = {
      ParamSpec::text("backend", "the storage service behind the forwarding nodes"),
      ParamSpec::one_of("mapping", {"static", "balanced"},
                        "static (client i of its group to forwarding node i / ratio) or balanced "
                        "(a job's I/O clients dealt evenly over all forwarding nodes)")
          .defaults("static"),
      ParamSpec::integer("ratio", "compute nodes per forwarding node under the static mapping")
          .defaults("512")
          .at_least(1),
  };
  return t;
}

ForwardingService::ForwardingService(const Params& p, const Context& c)
    : Service(p, c)
    , backend_(c.directory.get<StorageService>(p, "backend"))
    , ratio_(p.integer("ratio"))
{
  balanced_ = p.text("mapping") == "balanced";
}

ForwardingService::~ForwardingService() = default;

void ForwardingService::start(const ServiceRuntime& runtime)
{
  platform_ = &runtime.platform;
  faults_   = &runtime.faults;
  for (int64_t f = 0; f < servers().count; ++f) {
    pools_.push_back(std::make_unique<ServerPool>(runtime.platform, runtime.faults, servers().host(f), threads(),
                                                  "service '" + name() + "'", stats(static_cast<size_t>(f))));
    pools_.back()->set_resource(name() + " forwarding threads");
    pools_.back()->start();
  }
}

size_t ForwardingService::forwarder_for(int64_t index, size_t rank) const
{
  const auto count = static_cast<size_t>(servers().count);
  if (balanced_)
    return rank % count;
  return std::min(static_cast<size_t>(index / ratio_), count - 1);
}

std::string ForwardingService::cannot_serve(int64_t clients) const
{
  if (balanced_ || clients <= servers().count * ratio_)
    return "";
  return "the static mapping of service '" + name() + "' serves " + std::to_string(servers().count) + " x " +
         std::to_string(ratio_) + " = " + std::to_string(servers().count * ratio_) + " clients, fewer than the " +
         std::to_string(clients) + " nodes here: raise its ratio, add forwarding nodes, or use mapping: balanced";
}

void ForwardingService::submit(const ForwardedIo& io, IoCallback done)
{
  ServerPool::Request r;  // no on_down: a forwarding node that is down is waited for
  if (io.op == IoOp::Read) {
    r.serve = [this, io, done] { serve_read(io, done); };
    pools_[io.forwarder]->submit(std::move(r));
    return;
  }
  // A write first gets room at its target (the client's grant), then queues here.
  r.serve = [this, io, done] { serve_write(io, done); };
  backend_.take_credit(io.target, io.bytes,
                       [this, io, r = std::move(r)]() mutable { pools_[io.forwarder]->submit(std::move(r)); });
}

void ForwardingService::retry(const ForwardedIo& io, const IoCallback& done, bool write)
{
  if (faults_->is_down(io.client, now())) {
    done({IoStatus::ClientDown, "client " + platform_->name(io.client) + " went down"});
    return;
  }
  // The forwarding node went down: what it held is lost, and the request starts over in its
  // queue, which holds it until the node is back. The storage server went down: this thread
  // waits for it, as a client RPC blocked on it would, and carries on.
  if (faults_->is_down(host(io.forwarder), now())) {
    submit(io, done);
    return;
  }
  sleep_until(faults_->up_at(backend_.host_of_target(io.target), now()));
  if (write)
    submit(io, done);
  else
    relay_back(io, done);
}

namespace {

// The storage request a forwarding node makes for a client's request.
TargetIo to_backend(const ForwardedIo& io)
{
  TargetIo t;
  t.op        = io.op;
  t.client    = io.client;
  t.target    = io.target;
  t.bytes     = io.bytes;
  t.file      = io.file;
  t.forwarded = true;
  return t;
}

}  // namespace

void ForwardingService::serve_write(const ForwardedIo& io, const IoCallback& done)
{
  ServerPool& pool    = *pools_[io.forwarder];
  const HostId fwd    = host(io.forwarder);
  const HostId server = backend_.host_of_target(io.target);
  const double deadline =
      std::min({pool.deadline(), faults_->next_failure(io.client, now()), faults_->next_failure(server, now())});
  XBT_DEBUG("%s -> %s -> %s: %g B", platform_->name(io.client).c_str(), platform_->name(fwd).c_str(),
            platform_->name(server).c_str(), io.bytes);
  const auto sent = io.sent ? io.sent : [] {};
  if (!relay(*platform_, io.client, fwd, server, io.bytes, io.min_first_hop, deadline, sent)) {
    backend_.give_credit(io.target, io.bytes);
    retry(io, done, true);
    return;
  }
  pool.stats().add(now(), io.bytes, 1);
  TargetIo t = to_backend(io);
  t.credited = true;
  backend_.write_forwarded(t, done);
}

void ForwardingService::serve_read(const ForwardedIo& io, const IoCallback& done)
{
  if (io.sent)
    io.sent();
  struct Pending {
    bool over = false;
    IoOutcome outcome;
    WaitPoint read;
  };
  auto pending = std::make_shared<Pending>();
  backend_.submit(to_backend(io), [pending](const IoOutcome& o) {
    pending->over    = true;
    pending->outcome = o;
    pending->read.notify_all();
  });
  // The thread waits for the storage server's read, as an LWFS thread blocks on its file
  // system read: what a forwarding node has in flight is bounded by its threads.
  if (!pending->read.wait_until([&] { return pending->over; }, pools_[io.forwarder]->deadline())) {
    submit(io, done);  // this forwarding node went down: the read starts over once it is back
    return;
  }
  if (!pending->outcome.ok()) {
    done(pending->outcome);
    return;
  }
  relay_back(io, done);
}

void ForwardingService::relay_back(const ForwardedIo& io, const IoCallback& done)
{
  ServerPool& pool    = *pools_[io.forwarder];
  const HostId server = backend_.host_of_target(io.target);
  const double deadline =
      std::min({pool.deadline(), faults_->next_failure(io.client, now()), faults_->next_failure(server, now())});
  XBT_DEBUG("%s -> %s -> %s: %g B", platform_->name(server).c_str(), platform_->name(host(io.forwarder)).c_str(),
            platform_->name(io.client).c_str(), io.bytes);
  if (!relay(*platform_, server, host(io.forwarder), io.client, io.bytes, io.min_first_hop, deadline, [] {})) {
    retry(io, done, false);
    return;
  }
  pool.stats().add(now(), io.bytes, 1);
  done({});
}

void ForwardingService::submit_metadata(size_t forwarder, MetaOp op, const std::string& path, int64_t count,
                                        IoCallback done)
{
  MetadataService* mds = backend_.metadata();
  if (mds == nullptr) {
    done({});
    return;
  }
  ServerPool::Request r;
  r.serve = [this, forwarder, op, path, count, done, mds] {
    ServerPool& pool = *pools_[forwarder];
    // The forwarding node is the file system's client: it retries until the metadata server and
    // itself are up.
    const HostId mds_host = mds->servers().host(static_cast<int64_t>(mds->server_of(path)));
    while (!mds->call(host(forwarder), op, path, count, pool.deadline(), true))
      sleep_until(std::max(faults_->up_at(host(forwarder), now()), faults_->up_at(mds_host, now())));
    done({});
  };
  pools_[forwarder]->submit(std::move(r));
}

namespace {

const MetricTable kForwardingMetrics = joined(
    Service::common_metrics(),
    {
        {"charged_bytes", MetricUnit::Bytes,
         "bytes charged at a cost measured earlier rather than relayed (train io_replay): in no other byte total, "
         "utilisation or CSV"},
    });

}  // namespace

LLSIM_DECLARE_METRICS(Service, ForwardingService::kKind, kForwardingMetrics);

Metrics ForwardingService::totals() const
{
  Metrics m = Service::totals();
  m.push_back({"charged_bytes", charged_B_});
  return m;
}

LLSIM_REGISTER(Service, "forwarding", ForwardingService, "I/O forwarding nodes in front of a storage service",
               ForwardingService::params());

}  // namespace llsim
