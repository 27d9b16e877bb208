// Contract of a service kind (registry "service", chosen with `kind:`). Services are
// declared once at the top level of a scenario and named by the phases that use them, so phases
// that run at the same time contend for the same servers:
//
//   services:
//     pfs: {kind: storage, servers: oss, threads: 16, stripe_count: 4, stripe_size: 1MiB, metadata: mds}
//     fwd: {kind: forwarding, servers: fwdnodes, backend: pfs, threads: 16, mapping: static, ratio: 512}
//     mds: {kind: metadata, servers: mdsnodes, threads: 8, ops: {create: 50k/s, stat: 200k/s}}
//     kv:  {kind: memory_pool, servers: cpunodes, capacity: 512GiB}
//
// A service is long-lived: its server threads (server_pool.hpp) start with the simulation and
// serve requests until it ends. Its request API has no SimGrid types (WRENCH's lesson): hosts
// are HostIds, completions are callbacks or blocking calls made from an actor.
// - The constructor reads and checks every parameter (at load time; no SimGrid object exists)
//   and may look up the services it builds on in the directory.
// - start() runs inside the simulation before any phase.
// - After the run, every service writes service_<name>.csv (per server and time bucket: bytes,
//   operations, queue length, utilisation; and stored bytes for a kind that holds data) and its
//   totals in summary.json. Utilisation is the
//   share of a server's threads at work, or of its disks for a storage service (its threads
//   only move bytes over the network; its disks are what saturates).
#pragma once
#include "sim/core/csv.hpp"
#include "sim/core/metrics.hpp"
#include "sim/core/params.hpp"
#include "sim/platform/platform_spec.hpp"
#include "sim/svc/server_stats.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llsim {

class HostFaults;
class Platform;
class ServiceDirectory;
class Timer;

struct ServiceRuntime {
  const Platform& platform;
  HostFaults& faults;
  Timer& timer;  // for replies that cross the network, and clients that retry later
};

class Service {
 public:
  struct Context {
    const PlatformSpec& platform;
    std::string name;
    uint64_t seed;
    ServiceDirectory& directory;
  };
  static constexpr const char* kInterfaceName = "service";
  static constexpr const char* kHeader        = "sim/svc/service.hpp";
  static constexpr const char* kSelector      = "kind";

  // Keys of every service: servers, threads, sample_period.
  static const ParamTable& common_params();

  Service(const Params& p, const Context& c);
  virtual ~Service() = default;

  const std::string& name() const { return name_; }
  virtual const char* kind() const = 0;
  const GroupSpec& servers() const { return servers_; }
  size_t threads() const { return threads_; }
  // Index (0-based) of a server host in its group.
  size_t server_index(HostId h) const { return h - servers_.first_host; }

  virtual void start(const ServiceRuntime& runtime) = 0;
  // Totals for summary.json (bytes, operations, utilisation, ...), after finish().
  virtual Metrics totals() const;
  // The metrics of Service::totals(), which every kind's table starts with (sim/core/metrics.hpp).
  static const MetricTable& common_metrics();
  // Closes every server's statistics at the end of the run.
  void finish(double end_s);
  CsvWriter table(const PlatformSpec& platform) const;  // service_<name>.csv

 protected:
  ServerStats& stats(size_t server) { return stats_[server]; }
  virtual void before_finish(double) {}                          // statistics still held back are handed over here
  void utilisation_of(size_t units_per_server);                  // units other than the threads (constructor only)
  void reports_stored_bytes() { reports_stored_bytes_ = true; }  // its servers report a level
  double end_s_ = 0;

 private:
  std::string name_;
  const GroupSpec& servers_;
  size_t threads_;
  std::vector<ServerStats> stats_;
  double sample_period_s_;
  bool reports_stored_bytes_ = false;
};

}  // namespace llsim
