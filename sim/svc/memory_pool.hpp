// Service kind `memory_pool`: servers whose memory holds named blocks (a pooled KVCache, as in
// Mooncake), put and got by clients over the network.
//
//   kv: {kind: memory_pool, servers: cpunodes, capacity: 512GiB, threads: 16, eviction: {impl: lru}}
//
// - A block lives on the server its key hashes to. Each server holds at most `capacity` bytes.
// - put: a server thread pulls the block from the client over the network and stores it; when
//   it does not fit, the eviction policy frees room (never a block being read, nor a pinned
//   one); a block that still does not fit is rejected. Putting a block the server has is a use
//   of it (no transfer). A pinned block stays until it is evicted by name (swapped-out KV).
// - get: a hit sends the block to the client over the network; a miss answers at once.
// - evict: drops a block (no simulated time).
// A server that is down answers nothing: calls to it fail, and its blocks are lost when it fails.
// service_<name>.csv has a stored_bytes column: each server's bytes of blocks held or arriving.
#pragma once
#include "sim/svc/eviction_policy.hpp"
#include "sim/svc/server_pool.hpp"
#include "sim/svc/service.hpp"

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace llsim {

enum class PoolResult { Stored, Rejected, Hit, Miss, Failed };

class MemoryPool : public Service {
 public:
  static constexpr const char* kKind = "memory_pool";
  static const ParamTable& params();

  MemoryPool(const Params& p, const Context& c);
  ~MemoryPool() override;
  const char* kind() const override { return kKind; }
  void start(const ServiceRuntime& runtime) override;
  Metrics totals() const override;

  size_t server_of(const std::string& key) const;
  double capacity() const { return capacity_B_; }
  bool holds(const std::string& key) const;
  double stored_B() const;
  double evictions() const { return evictions_; }

  // Blocking calls made by an actor on behalf of `client`; Failed when a host involved is down
  // or `deadline` passes.
  // `depth`: the block's position in its prefix, for the eviction policy.
  PoolResult put(HostId client, const std::string& key, double bytes, double deadline, int64_t depth = 0,
                 bool pinned = false);
  PoolResult get(HostId client, const std::string& key, double deadline);
  void evict(const std::string& key);

 private:
  struct Block {
    double bytes;
    bool ready  = false;  // its bytes have arrived
    bool pinned = false;  // never the eviction policy's victim
    int readers = 0;
  };
  struct Server {
    std::unique_ptr<ServerPool> pool;
    std::unique_ptr<EvictionPolicy> policy;
    std::unordered_map<std::string, Block> blocks;
    double stored_B = 0;
  };
  struct PutShape {
    double bytes  = 0;
    int64_t depth = 0;
    bool pinned   = false;
  };
  PoolResult call(HostId client, const std::string& key, const PutShape& put, bool is_put, double deadline);
  PoolResult serve_put(Server& s, HostId host, HostId client, const std::string& key, const PutShape& put,
                       double deadline);
  PoolResult serve_get(Server& s, HostId host, HostId client, const std::string& key, double deadline);
  bool make_room(Server& s, double bytes);
  void drop(Server& s, const std::string& key);
  void add_stored(Server& s, double bytes);  // and report the server's level
  void lose_all(Server& s);                  // its host failed

  double capacity_B_;
  const Platform* platform_ = nullptr;
  HostFaults* faults_       = nullptr;
  std::vector<Server> servers_;
  double hits_ = 0, misses_ = 0, evictions_ = 0, rejected_ = 0, lost_ = 0;
};

}  // namespace llsim
