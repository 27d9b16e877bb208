// Service kind `forwarding`: I/O forwarding nodes in front of a storage service, as on Sunway
// (compute node -> forwarding node running an LWFS server and a Lustre client -> storage server).
//
//   fwd: {kind: forwarding, servers: fwdnodes, backend: pfs, threads: 16, mapping: static, ratio: 512}
//
// - mapping `static`: compute node i of its group is served by forwarding node i / ratio, the
//   machine's fixed wiring (TaihuLight: 512 compute nodes per forwarding node); `balanced`: a
//   job's I/O clients are dealt evenly over all forwarding nodes (forwarding-node reallocation,
//   DFRA, FAST'19).
// - Each forwarding node has a pool of `threads` (server_pool.hpp). A write holds a thread while
//   its bytes flow from the client through the forwarding node to the storage server (both hops
//   at once: the server forwards while it receives), after waiting for room in that server's
//   write buffer; the thread is free again as soon as the request is queued at the storage
//   server, whose own threads write it to disk. A read holds a thread only to pass the request
//   on; when the storage server has read it, a thread relays the bytes back the same way.
// - A client's bytes never move faster than its own rate (`min_first_hop` of a request).
// - Creates and opens are issued by a forwarding thread to the backend's metadata service (the
//   forwarding node is the file system client), holding the thread for the RPC.
// - A forwarding node that is down holds its requests until it is back; so does a storage
//   server. A client that goes down loses its requests.
#pragma once
#include "sim/svc/metadata.hpp"
#include "sim/svc/storage.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

struct ForwardedIo {
  IoOp op              = IoOp::Write;
  HostId client        = 0;
  size_t forwarder     = 0;
  size_t target        = 0;  // of the backend
  double bytes         = 0;
  FileId file          = 0;
  double min_first_hop = 0;  // the client cannot send or receive the bytes faster
  // The request has left the client: a write's bytes are sent, a read is taken into service
  // (optional; must not block). A client issues its next request then.
  std::function<void()> sent;
};

class ForwardingService : public Service {
 public:
  static constexpr const char* kKind = "forwarding";
  static const ParamTable& params();

  ForwardingService(const Params& p, const Context& c);
  ~ForwardingService() override;
  const char* kind() const override { return kKind; }
  void start(const ServiceRuntime& runtime) override;
  Metrics totals() const override;

  StorageService& backend() const { return backend_; }
  bool balanced() const { return balanced_; }
  // The forwarding node of the client with index `index` in its group, which is the `rank`-th
  // I/O client of its job (balanced mapping).
  size_t forwarder_for(int64_t index, size_t rank) const;
  // Why a group of `clients` nodes cannot use this service ("" if it can): under the static
  // mapping, its forwarding nodes serve `ratio` clients each and no more.
  std::string cannot_serve(int64_t clients) const;

  void submit(const ForwardedIo& io, IoCallback done);
  // `count` metadata operations on `path`, issued by a thread of `forwarder` (holding it).
  void submit_metadata(size_t forwarder, MetaOp op, const std::string& path, int64_t count, IoCallback done);
  // Bytes a phase charged at a measured cost instead of relaying them (a train phase's
  // io_replay): reported apart from the bytes relayed.
  void charge(double bytes) { charged_B_ += bytes; }

 private:
  void serve_write(const ForwardedIo& io, const IoCallback& done);
  void serve_read(const ForwardedIo& io, const IoCallback& done);
  void relay_back(const ForwardedIo& io, const IoCallback& done);
  void retry(const ForwardedIo& io, const IoCallback& done, bool write);
  HostId host(size_t forwarder) const { return servers().host(static_cast<int64_t>(forwarder)); }

  StorageService& backend_;
  double charged_B_ = 0;
  bool balanced_;
  int64_t ratio_;
  const Platform* platform_ = nullptr;
  HostFaults* faults_       = nullptr;
  std::vector<std::unique_ptr<ServerPool>> pools_;
};

}  // namespace llsim
