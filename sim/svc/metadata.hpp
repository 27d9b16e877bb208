// Service kind `metadata`: metadata servers (MDS) with a service rate per operation.
//
//   mds: {kind: metadata, servers: mdsnodes, threads: 8,
//         ops: {create: 50k/s, open: 100k/s, stat: 200k/s, ...}, service_time: exponential,
//         rpc_size: 1KiB, partition: {impl: hashed}}
//
// An operation is an RPC: the request crosses the network from the client to the server that
// owns the path (the partitioning model decides), waits in that server's FIFO queue, is served
// by one of its `threads`, and the reply crosses back. Each crossing takes the route's latencies
// plus `rpc_size` at its narrowest bandwidth (sim/platform/message_time.hpp: small messages
// are not shared with bulk flows). A rate is what one server
// sustains when all its threads are busy; each thread serves one operation at a time in
// threads / rate on average (exponentially distributed or constant), so a server is an M/M/c
// queue under Poisson arrivals with exponential service (M/D/c with constant service).
// Host cores play no part: a server's capacity is its rates. Its CSV bytes are the RPCs' (a
// request and a reply of `rpc_size` per call).
#pragma once
#include "sim/core/distribution.hpp"
#include "sim/svc/server_pool.hpp"
#include "sim/svc/service.hpp"

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

class MetadataPartition;

enum class MetaOp { Mkdir, Create, Open, Stat, Readdir, Unlink, Close };
constexpr size_t kMetaOps = 7;
const char* meta_op_name(MetaOp op);
// The operation named `name`; false when there is none.
bool parse_meta_op(const std::string& name, MetaOp* op);

class MetadataService : public Service {
 public:
  static constexpr const char* kKind = "metadata";

  static const ParamTable& params();  // its keys besides the common ones
  MetadataService(const Params& p, const Context& c);
  ~MetadataService() override;
  const char* kind() const override { return kKind; }
  void start(const ServiceRuntime& runtime) override;

  size_t server_of(const std::string& path) const;
  double rate(MetaOp op) const { return rates_[static_cast<size_t>(op)]; }  // per server

  // An RPC on behalf of `client`, carrying `count` operations of one kind (served back to back
  // by one thread). With `wait_if_down`, a server that is down is waited for (a client that
  // retries); otherwise the call fails. `done(ok)` runs when the reply reaches the client (it
  // must not block).
  void call_async(HostId client, MetaOp op, const std::string& path, int64_t count, bool wait_if_down,
                  std::function<void(bool ok)> done);
  // The same, blocking the calling actor; false when it failed or `deadline` (absolute) passed.
  bool call(HostId client, MetaOp op, const std::string& path, int64_t count, double deadline,
            bool wait_if_down = false);

 private:
  struct Call;
  void enqueue(size_t server, const std::shared_ptr<Call>& call);
  double service_time(size_t server, MetaOp op, int64_t count);
  double leg_s(HostId from, HostId to);  // one crossing of the network by a request or a reply

  std::array<double, kMetaOps> rates_{};
  bool exponential_;
  double rpc_B_;
  std::unique_ptr<MetadataPartition> partition_;
  uint64_t seed_key_;
  const Platform* platform_ = nullptr;
  HostFaults* faults_       = nullptr;
  Timer* timer_             = nullptr;
  std::vector<Rng> rngs_;  // per server: service times
  std::vector<std::unique_ptr<ServerPool>> pools_;
  std::map<std::pair<HostId, HostId>, double> leg_s_;  // by the groups' first hosts
};

}  // namespace llsim
