// Service kind `storage` (sim/svc/storage.hpp documents it), registered at the bottom of this file.
// Example (tests/llsim/test_conformance.py runs it):
//   llsim run tests/inputs/transfer_bounds.yaml

#include "sim/svc/storage.hpp"

#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/faults/host_faults.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/platform.hpp"
#include "sim/svc/declared_files.hpp"
#include "sim/svc/directory.hpp"
#include "sim/svc/metadata.hpp"

#include <algorithm>
#include <limits>

XBT_LOG_EXTERNAL_CATEGORY(llsim_svc);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_svc_storage, llsim_svc, "the storage service");

namespace llsim {

namespace {

const ParamTable& storage_cost_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("per_TB_month", Dimension::Number, "price of 1 TB held for a month (730 h)")
          .at_least(0)
          .at_most(1e12),
  };
  return t;
}

}  // namespace

const ParamTable& StorageService::params()
{
  static const ParamTable t = {
      ParamSpec::integer("stripe_count", "targets a new file is striped over (0: all targets); files of transfer, "
                                         "tasks and requests (a train checkpoint is placed by its layout)")
          .defaults("1")
          .at_least(0),
      ParamSpec::quantity("stripe_size", Dimension::Size,
                          "stripe unit: bytes a file puts on one target before the next (as stripe_count)")
          .defaults("1MiB")
          .positive(),
      ParamSpec::text("metadata", "metadata service that creates and opens files (absent: none)").may_be_absent(),
      ParamSpec::quantity("request_cost", Dimension::Duration,
                          "time a server thread spends on each request besides moving its bytes: the file "
                          "system's protocol and CPU work per request")
          .defaults("0s")
          .at_least(0),
      ParamSpec::quantity("client_bandwidth", Dimension::Bandwidth,
                          "bytes one client host's file system client moves for this service per second, reads "
                          "and writes together, one request after another (kernel NFS, FUSE or RDMA client; 0: no "
                          "limit but the network)")
          .defaults("0Bps")
          .at_least(0),
      ParamSpec::quantity("client_request_rate", Dimension::Rate,
                          "requests one client host's file system client passes per second, in series with "
                          "client_bandwidth's bytes (a FUSE daemon's or RPC client's ceiling; 0: no limit)")
          .defaults("0/s")
          .at_least(0),
      ParamSpec::quantity("thread_request_rate", Dimension::Rate,
                          "requests one client thread completes per second: each lasts at least the inverse, its "
                          "round trip (system call, FUSE or RPC); 0: no limit")
          .defaults("0/s")
          .at_least(0),
      ParamSpec::quantity("client_cache", Dimension::Size,
                          "page cache of one client host for this service's files: what it read or wrote there is "
                          "read again without the servers, least recently used files leaving first (0: none)")
          .defaults("0B")
          .at_least(0),
      ParamSpec::quantity("write_cache", Dimension::Size,
                          "memory of one server holding written bytes until their disk has them; decides how far "
                          "the network runs ahead of the disks (assumption)")
          .defaults("32GiB")
          .positive(),
      ParamSpec::section("cost", "{per_TB_month}: price of the bytes it holds, per TB (1e12 B) and month (730 h), "
                                 "in the scenario's currency")
          .may_be_absent()
          .with_fields(storage_cost_params()),
      ParamSpec::list("files", "file sets there when the run starts, each {path, bytes, shards, stripe_count, local}")
          .defaults("[]")
          .with_fields(declared_file_params()),
  };
  return t;
}

namespace {

// The targets of a storage service: the disks of its servers.
TargetGrid target_grid(const Params& p, const GroupSpec& servers)
{
  if (!servers.disks)
    p.fail("servers", "group '" + servers.name + "' has no 'disks' (a storage service's targets are its disks)");
  return {static_cast<size_t>(servers.count), static_cast<size_t>(servers.disks->count), servers.disks->capacity_B};
}

}  // namespace

StorageService::StorageService(const Params& p, const Context& c)
    : Service(p, c)
    , grid_(target_grid(p, servers()))
    , stripe_B_(p.quantity("stripe_size"))
    , files_(grid_, p.integer("stripe_count"), stripe_B_)
    , cache_(p.quantity("client_cache"))
    , write_cache_B_(p.quantity("write_cache"))
    , request_cost_s_(p.quantity("request_cost"))
    , client_Bps_(p.quantity("client_bandwidth"))
    , client_request_s_(p.quantity("client_request_rate") > 0 ? 1 / p.quantity("client_request_rate")
                                                              : 0)  // 0: no limit
    , thread_request_s_(p.quantity("thread_request_rate") > 0 ? 1 / p.quantity("thread_request_rate")
                                                              : 0)  // 0: no limit
{
  utilisation_of(grid_.disks_per_server);
  if (p.has("metadata"))
    metadata_ = &c.directory.get<MetadataService>(p, "metadata");
  if (p.has("cost"))
    per_TB_month_ = p.section("cost", storage_cost_params()).quantity("per_TB_month");
  declare_files(*this, p, "files");
}

StorageService::~StorageService() = default;

void StorageService::start(const ServiceRuntime& runtime)
{
  platform_               = &runtime.platform;
  faults_                 = &runtime.faults;
  const std::string label = "service '" + name() + "'";
  servers_.resize(grid_.servers);
  for (size_t s = 0; s < grid_.servers; ++s) {
    const HostId host = servers().host(static_cast<int64_t>(s));
    servers_[s].pool =
        std::make_unique<ServerPool>(runtime.platform, runtime.faults, host, threads(), label, stats(s), false);
    servers_[s].pool->set_resource(name() + " server threads");
    servers_[s].pool->start();
  }
  for (size_t t = 0; t < grid_.targets(); ++t) {
    ServerStats& server_stats = stats(server_of_target(t));
    credits_.emplace_back(write_cache_B_ / static_cast<double>(grid_.disks_per_server), &server_stats,
                          name() + " disk queue");
    disks_.push_back(std::make_unique<DiskWorker>(runtime.platform, runtime.faults, host_of_target(t), *servers().disks,
                                                  label, server_stats, name()));
    disks_.back()->start();
  }
}

namespace {

const MetricTable kStorageMetrics = joined(
    Service::common_metrics(),
    {
        {"bytes_written", MetricUnit::Bytes,
         "bytes written to the disks (writes through a forwarding service included)"},
        {"bytes_read", MetricUnit::Bytes, "bytes read from the disks and delivered to a client or forwarding node"},
        {"client_cache_bytes_read", MetricUnit::Bytes,
         "bytes clients read from their page cache (client_cache) instead of the servers"},
        {"stored_bytes", MetricUnit::Bytes, "bytes the disks hold at the end of the run (removed files given back)"},
        {"charged_bytes_written", MetricUnit::Bytes,
         "bytes written at a cost measured earlier rather than through the servers (train io_replay): they take "
         "capacity but are in no other byte total, utilisation or CSV"},
        {"charged_bytes_read", MetricUnit::Bytes,
         "bytes read at a cost measured earlier rather than through the servers (train io_replay)"},
    });

}  // namespace

LLSIM_DECLARE_METRICS(Service, StorageService::kKind, kStorageMetrics);

Metrics StorageService::totals() const
{
  Metrics m = Service::totals();
  m.push_back({"bytes_written", written_B_});
  m.push_back({"bytes_read", read_B_});
  m.push_back({"client_cache_bytes_read", cached_read_B_});
  m.push_back({"stored_bytes", files_.stored_B()});
  m.push_back({"charged_bytes_written", charged_written_});
  m.push_back({"charged_bytes_read", charged_read_});
  return m;
}

void StorageService::take_credit(size_t target, double bytes, std::function<void()> admitted)
{
  credits_[target].take(bytes, std::move(admitted));
}

void StorageService::give_credit(size_t target, double bytes)
{
  credits_[target].give(bytes);
}

void StorageService::give_credit(const TargetIo& io)
{
  if (io.op == IoOp::Write && io.credited)
    give_credit(io.target, io.bytes);
}

void StorageService::write_forwarded(const TargetIo& io, IoCallback done)
{
  const IoOutcome space = take_space(io.file, io.target, io.bytes);
  if (!space.ok()) {
    give_credit(io);
    done(space);
    return;
  }
  write_to_disk(std::make_shared<Request>(Request{io, std::move(done)}));
}

void StorageService::submit(TargetIo io, IoCallback done)
{
  submit(std::make_shared<Request>(Request{std::move(io), std::move(done)}));
}

void StorageService::submit(const RequestPtr& r)
{
  TargetIo& io = r->io;
  if (thread_request_s_ > 0 && io.issued_s < 0)  // stamped only where a round trip is floored
    io.issued_s = now();
  if (io.op == IoOp::Write && !io.credited) {
    take_credit(io.target, io.bytes, [this, r] {
      r->io.credited = true;
      submit(r);
    });
    return;
  }
  Server& server = servers_[server_of_target(io.target)];
  if (io.op == IoOp::Read && !faults_->is_down(server.pool->host(), now())) {
    read_from_disk(r);
    return;
  }
  ServerPool::Request q;
  if (io.op == IoOp::Write)
    q.serve = [this, r] { receive_write(r); };
  else
    q.serve = [this, r] { read_from_disk(r); };  // the server was down: it is back
  server.pool->submit(std::move(q));
}

void StorageService::interrupted(const TargetIo& io, const IoCallback& done)
{
  const HostId host = host_of_target(io.target);
  if (faults_->is_down(host, now()) && io.interruptions_left != 0) {
    TargetIo again = io;
    if (again.interruptions_left > 0)
      again.interruptions_left -= 1;
    submit(again, done);  // queued until the server is back, keeping its room in the cache
    return;
  }
  give_credit(io);
  if (faults_->is_down(host, now()))
    done({IoStatus::TimedOut, "a request to server " + platform_->name(host) + " was interrupted by its failures " +
                                  "more times than its client waits for"});
  else
    done({IoStatus::ClientDown, "client " + platform_->name(io.client) + " went down"});
}

void StorageService::receive_write(const RequestPtr& r)
{
  const TargetIo& io        = r->io;
  Server& server            = servers_[server_of_target(io.target)];
  const HostId host         = host_of_target(io.target);
  const double server_fails = server.pool->deadline();
  const double deadline     = std::min(server_fails, faults_->next_failure(io.client, now()));
  XBT_DEBUG("write %s %g B to disk %zu of %s", platform_->name(io.client).c_str(), io.bytes, disk_of_target(io.target),
            platform_->name(host).c_str());
  const IoOutcome space = take_space(io.file, io.target, io.bytes);
  if (!space.ok()) {
    give_credit(io);
    r->done(space);
    return;
  }
  if (!serve_request(io, io.client, host, deadline)) {
    give_back(io.file, io.target, io.bytes);
    interrupted(io, r->done);
    return;
  }
  if (io.sent)
    io.sent();
  write_to_disk(r);
}

void StorageService::write_to_disk(const RequestPtr& r)
{
  disks_[r->io.target]->submit({IoOp::Write, r->io.bytes, nullptr, [this, r](bool ok) {
                                  const TargetIo& io = r->io;
                                  if (!ok) {
                                    give_back(io.file, io.target, io.bytes);
                                    interrupted(io, r->done);  // the server went down: its cache is lost
                                    return;
                                  }
                                  give_credit(io);
                                  written_B_ += io.bytes;
                                  servers_[server_of_target(io.target)].pool->stats().add(now(), io.bytes, 1);
                                  r->done({});
                                }});
}

void StorageService::read_from_disk(const RequestPtr& r)
{
  disks_[r->io.target]->submit({IoOp::Read, r->io.bytes, r->io.sent, [this, r](bool ok) {
                                  const TargetIo& io = r->io;
                                  if (!ok) {
                                    interrupted(io, r->done);
                                    return;
                                  }
                                  if (io.forwarded) {
                                    read_B_ += io.bytes;
                                    servers_[server_of_target(io.target)].pool->stats().add(now(), io.bytes, 1);
                                    r->done({});
                                    return;
                                  }
                                  ServerPool::Request q;
                                  q.serve = [this, r] { send_read(r); };
                                  servers_[server_of_target(io.target)].pool->submit(std::move(q));
                                }});
}

bool StorageService::serve_request(const TargetIo& io, HostId from, HostId to, double deadline)
{
  double min_duration = io.min_duration;
  if (request_cost_s_ > 0 && !pause(request_cost_s_, deadline))
    return false;
  if (client_Bps_ > 0 || client_request_s_ > 0) {  // the client passes the requests ahead of this one first
    double& free_s = client_free_s_[io.client];
    free_s         = std::max(free_s, now()) + client_request_s_ + (client_Bps_ > 0 ? io.bytes / client_Bps_ : 0);
    min_duration   = std::max(min_duration, free_s - now());
  }
  if (thread_request_s_ > 0)
    min_duration = std::max(min_duration, io.issued_s + thread_request_s_ - now());
  return transfer(*platform_, from, to, io.bytes, deadline, min_duration);
}

void StorageService::send_read(const RequestPtr& r)
{
  const TargetIo& io    = r->io;
  Server& server        = servers_[server_of_target(io.target)];
  const HostId host     = host_of_target(io.target);
  const double deadline = std::min(server.pool->deadline(), faults_->next_failure(io.client, now()));
  if (!serve_request(io, host, io.client, deadline)) {
    interrupted(io, r->done);
    return;
  }
  read_B_ += io.bytes;
  server.pool->stats().add(now(), io.bytes, 1);
  r->done({});
}

void StorageService::create_async(HostId client, const std::string& path, int64_t stripe_count,
                                  std::function<void(FileId)> done)
{
  if (metadata_ == nullptr) {
    done(new_file(stripe_count));
    return;
  }
  metadata_->call_async(client, MetaOp::Create, path, 1, true,
                        [this, stripe_count, done](bool) { done(new_file(stripe_count)); });
}

bool StorageService::create(HostId client, const std::string& path, int64_t stripe_count, double deadline, FileId* file)
{
  if (metadata_ && !metadata_->call(client, MetaOp::Create, path, 1, deadline, true))
    return false;
  *file = new_file(stripe_count);
  return true;
}

LLSIM_REGISTER(Service, "storage", StorageService,
               "a parallel file system or node-local disks: targets, striping, threads, capacity",
               StorageService::params());

std::vector<size_t> StorageService::targets_of(size_t server) const
{
  std::vector<size_t> out;
  for (size_t d = 0; d < grid_.disks_per_server; ++d)
    out.push_back(d * grid_.servers + server);
  return out;
}

IoOutcome StorageService::take_space(FileId f, size_t target, double bytes)
{
  switch (files_.take(f, target, bytes, clock_s())) {
  case StoredFiles::Take::Taken:
    return {};
  case StoredFiles::Take::Removed:
    return {IoStatus::Removed, "the file was removed"};  // its writer gave up on it
  case StoredFiles::Take::Full:
    break;
  }
  const HostId host = host_of_target(target);
  return {IoStatus::NoSpace,
          "storage '" + name() + "': disk " + std::to_string(disk_of_target(target)) + " of server " +
              (platform_ ? platform_->name(host) : std::to_string(host)) + " is full: " + format_bytes(bytes) +
              " do not fit (" + format_bytes(files_.used(target)) + " used of " + format_bytes(grid_.capacity_B) + ")"};
}

void StorageService::give_back(FileId f, size_t target, double bytes)
{
  files_.give_back(f, target, bytes, clock_s());
}

double StorageService::clock_s() const
{
  return platform_ != nullptr ? now() : 0;  // files declared at load time are there from the start
}

IoOutcome StorageService::account(FileId f, size_t target, double bytes)
{
  return take_space(f, target, bytes);
}

}  // namespace llsim
