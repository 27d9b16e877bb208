// Service kind `metadata`: metadata servers (MDS) with a service rate per operation.
//
//   mds: {kind: metadata, servers: mdsnodes, threads: 8,
//         ops: {create: 50k/s, open: 100k/s, stat: 200k/s, ...}, service_time: exponential,
//         rpc_size: 1KiB, model: {impl: hashed}, inode_bytes: 700B,
//         journal: {device: {write: 2GBps, read: 2GBps, latency: 1us}, record: 512B, block: 4KiB,
//                   checkpoint: {impl: reverse_scan, every: 1GB}}}
//
// An RPC crosses the network from the client to its server (the metadata model decides which:
// metadata_model.hpp), waits in that server's FIFO queue, is served by one of its `threads`,
// and the reply crosses back. Each crossing takes the route's latencies plus `rpc_size` at its
// narrowest bandwidth (sim/platform/message_time.hpp: small messages are not shared with bulk
// flows). A rate is what one server sustains when all its threads are busy; each thread serves
// one operation at a time in threads / rate on average (exponentially distributed or constant),
// so a server is an M/M/c queue under Poisson arrivals with exponential service (M/D/c with
// constant service). Host cores play no part: a server's capacity is its rates. The queue is
// computed in closed form (fifo_threads.hpp): one event per reply, none per queueing step.
//
// An RPC may stand for `scale` identical operations of one client (the ingest phase's scale):
// they are served back to back by one thread, cross the network one after another, and count
// `scale` times in every total.
//
// Persistence: with `journal`, every mutating operation (mkdir, create, unlink, close) appends a
// record to the server's log device and is answered once it is durable (metadata_journal.hpp);
// checkpoints write the changed blocks to the server's disks. Capacity: each inode takes
// `inode_bytes`; a server whose inodes outgrow its disks (or, without disks, its memory) refuses
// the operation, and capacity_error() says which server and how many bytes.
//
// Host faults: nothing is served while a server's host is down. A request that would be served
// then, or is in service when the host fails, fails at that moment, unless it waits for the
// server (a client that retries), in which case it is served again once the host is back.
// Its CSV bytes are the RPCs' (a request and a reply of `rpc_size` per call).
#pragma once
#include "sim/core/distribution.hpp"
#include "sim/sg/wait_ledger.hpp"
#include "sim/svc/deferred_stats.hpp"
#include "sim/svc/fifo_threads.hpp"
#include "sim/svc/meta_op.hpp"
#include "sim/svc/metadata_journal.hpp"
#include "sim/svc/metadata_model.hpp"
#include "sim/svc/service.hpp"

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llsim {

class MetadataService : public Service {
 public:
  static constexpr const char* kKind = "metadata";

  static const ParamTable& params();  // its keys besides the common ones
  MetadataService(const Params& p, const Context& c);
  ~MetadataService() override;
  const char* kind() const override { return kKind; }
  void start(const ServiceRuntime& runtime) override;
  Metrics totals() const override;

  MetadataModel& model() { return *model_; }
  size_t server_of(const std::string& path) const { return model_->server_of(path); }
  double rate(MetaOp op) const { return rates_[static_cast<size_t>(op)]; }  // per server

  // One RPC on behalf of `client`, standing for `scale` identical operations. With
  // `wait_if_down`, a server that is down is waited for; otherwise the call fails. `done(ok)`
  // runs when the reply reaches the client (it must not block).
  void submit(HostId client, const MetaRpc& rpc, int64_t scale, bool wait_if_down, std::function<void(bool ok)> done);
  // `op` on `path` as one RPC to the server holding the path's entry.
  void call_async(HostId client, MetaOp op, const std::string& path, int64_t count, bool wait_if_down,
                  std::function<void(bool ok)> done);
  // The same, blocking the calling actor; false when it failed or `deadline` (absolute) passed.
  bool call(HostId client, MetaOp op, const std::string& path, int64_t count, double deadline,
            bool wait_if_down = false);

  // Bytes of inodes the servers hold now, and the most one server holds.
  double metadata_B() const;
  double max_server_metadata_B() const;
  double journal_B() const;
  double home_write_B() const;
  // Empty, or what the first operation refused for lack of room said.
  const std::string& capacity_error() const { return capacity_error_; }

 protected:
  void before_finish(double end_s) override;

 private:
  struct Slot {
    bool ok;
    double start_s, end_s;
  };
  Slot serve(size_t server, double arrives, MetaOp op, int64_t scale, bool wait_if_down);
  double service_time(size_t server, MetaOp op, int64_t count);
  double leg_s(HostId from, HostId to);  // one crossing of the network by a request or a reply
  bool take_room(size_t server, const MetaRpc& rpc, int64_t scale);

  std::array<double, kMetaOps> rates_{};
  bool exponential_;
  double rpc_B_, inode_B_;
  std::unique_ptr<MetadataModel> model_;
  std::optional<JournalSpec> journal_spec_;
  uint64_t seed_key_;
  const Platform* platform_ = nullptr;
  HostFaults* faults_       = nullptr;
  Timer* timer_             = nullptr;
  std::vector<Rng> rngs_;  // per server: service times
  std::vector<FifoThreads> threads_;
  std::vector<DeferredStats> deferred_;
  std::vector<std::unique_ptr<MetadataJournal>> journals_;
  std::vector<double> inodes_;  // per server
  double room_B_ = 0;           // per server; 0: unbounded
  std::string capacity_error_;
  WaitResource queue_resource_, service_resource_, journal_resource_, network_resource_;  // wait_ledger.hpp
  std::map<std::pair<HostId, HostId>, double> leg_s_;                                     // by the groups' first hosts
};

}  // namespace llsim
