// Service kind `storage`: a parallel file system's data servers (OSS-like), or node-local disks
// when its servers are the compute nodes themselves.
//
//   pfs: {kind: storage, servers: oss, threads: 16, stripe_count: 1, stripe_size: 1MiB, metadata: mds,
//         write_cache: 32GiB, request_cost: 20us}
//
// - Every disk of every server is a target (an OST). Targets are numbered across servers first
//   (target t is disk t / servers of server t mod servers), so consecutive targets sit on
//   different servers, as Lustre's round-robin allocator spreads a file's stripes.
// - A file is striped over `stripe_count` targets (0: all) in `stripe_size` units; a new file
//   starts where the previous one ended (round-robin allocation), or one target further when
//   it covers them all.
// - A request is one target's part of a read or write. A server is a pipeline:
//   * its network side: a pool of `threads` requests in service, with a FIFO queue in front
//     (server_pool.hpp). A thread spends `request_cost` on the request (protocol, CPU), then
//     pulls a write's bytes from the client, or sends a read's bytes to the client;
//   * its `write_cache` (memory), shared evenly by its disks: written bytes wait there for their
//     disk. A write first takes room in its disk's share (first come, first served, like a
//     Lustre client's grant per OST), before it enters the queue; a full share holds the
//     network back for that disk only;
//   * its disks: each serves its requests in arrival order, on its own, up to its parallelism at once
//     (disk_worker.hpp). A write is done when its disk has written it; a read starts at its disk.
// - When a forwarding service stands in front (forwarding.hpp) the forwarder moves the bytes: a
//   forwarded write goes to its disk's queue as soon as its bytes have arrived (write_forwarded),
//   a forwarded read is done when its disk has read it.
// - A client host's file system client (kernel NFS, FUSE, RDMA) passes its requests one after
//   another, each taking 1 / `client_request_rate` plus its bytes at `client_bandwidth`: a
//   request does not end before the requests ahead of it and itself have passed (0: no limit
//   but the network). A client thread's request lasts at least 1 / `thread_request_rate` (its
//   round trip). A forwarded request's bytes are the forwarder's, not a client's.
// - A client host's page cache (`client_cache`, files/client_page_cache.hpp) holds the file ranges it
//   read or wrote by file (read, write); a read takes from the servers only what it lacks. A
//   host that went down finds it empty.
//   Requests by target (submit: a checkpoint's shards, file streams) pass it by, as O_DIRECT or
//   a dropped cache would.
// - Creates and opens go to its `metadata` service, when it has one.
// - `files:` declares file sets there from the start (declared_files.hpp), e.g. a model's weights.
// - `cost: {per_TB_month}` prices the bytes it holds over time (sim/accounting/accounting.hpp).
// - Capacity is enforced per target: a write that does not fit fails, naming the server, the
//   disk and the bytes.
#pragma once
#include "sim/sg/activities.hpp"
#include "sim/svc/disk_worker.hpp"
#include "sim/svc/files/client_page_cache.hpp"
#include "sim/svc/files/stored_files.hpp"
#include "sim/svc/server_pool.hpp"
#include "sim/svc/service.hpp"

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace llsim {

class MetadataService;
class WaitPoint;

enum class IoStatus { Done, ClientDown, NoSpace, TimedOut, Removed };

struct IoOutcome {
  IoStatus status = IoStatus::Done;
  std::string message;  // what went wrong, for an error message
  bool ok() const { return status == IoStatus::Done; }
};

// Completion of an asynchronous request. It runs in a service thread: it must not block, and
// may submit further requests.
using IoCallback = std::function<void(const IoOutcome&)>;

// One target's part of a read or write.
struct TargetIo {
  IoOp op             = IoOp::Write;
  HostId client       = 0;  // where the bytes come from (write) or go to (read)
  size_t target       = 0;
  double bytes        = 0;
  FileId file         = 0;
  double min_duration = 0;   // the client cannot move the bytes faster than this
  double issued_s     = -1;  // when the client issued it (set by submit with thread_request_rate)
  // A server that is down is waited for: server failures the request survives before it fails
  // (TimedOut); -1: any number.
  int64_t interruptions_left = -1;
  bool forwarded             = false;  // a forwarder moves the bytes; the server only does the disk
  bool credited              = false;  // writes: room in the target's cache is taken already
  // The request has left the client: a write's bytes have arrived, a read is taken into service
  // (optional; must not block). A client issues its next request then.
  std::function<void()> sent;
};

class StorageService : public Service {
 public:
  static constexpr const char* kKind = "storage";
  static const ParamTable& params();

  StorageService(const Params& p, const Context& c);
  ~StorageService() override;
  const char* kind() const override { return kKind; }
  void start(const ServiceRuntime& runtime) override;
  Metrics totals() const override;

  size_t targets() const { return grid_.targets(); }
  size_t server_of_target(size_t t) const { return t % grid_.servers; }
  size_t disk_of_target(size_t t) const { return t / grid_.servers; }
  HostId host_of_target(size_t t) const { return servers().host(static_cast<int64_t>(server_of_target(t))); }
  std::vector<size_t> targets_of(size_t server) const;  // its disks
  double stripe_size() const { return stripe_B_; }
  MetadataService* metadata() const { return metadata_; }

  // Files (bookkeeping only, no simulated time: files/stored_files.hpp). A new file is striped over
  // `stripe_count` targets (0: all; -1: the service's default) by the round-robin allocator; a
  // local file lies on the disks of one server (node-local storage).
  FileId new_file(int64_t stripe_count = -1) { return files_.new_file(stripe_count); }
  FileId new_local_file(size_t server) { return files_.new_local_file(server); }
  // A handle for bytes written target by target (submit with explicit targets), e.g. a whole
  // checkpoint: no striping of its own, capacity is counted per target it is written to.
  FileId new_object() { return files_.new_object(); }
  // Frees its bytes; writes to it still queued are dropped (Removed).
  bool exists(FileId f) const { return files_.exists(f); }
  void remove(FileId f)
  {
    files_.remove(f, clock_s());
    cache_.forget(f);
  }
  // Files by name (files/file_names.hpp), for a phase that reads what another wrote or the scenario
  // declared (`files:`): the file last given `name` if it still exists (else null), the existing
  // files of a file set, the bytes they hold, and the bytes a file holds.
  void set_name(const std::string& name, FileId f) { files_.names().set(name, f); }
  const FileId* named(const std::string& name) const { return files_.named(name); }
  std::vector<FileId> file_set(const std::string& path) const { return files_.file_set(path); }
  double set_B(const std::string& path) const { return files_.set_B(path); }
  FileNames& names() { return files_.names(); }
  const FileNames& names() const { return files_.names(); }
  double file_B(FileId f) const { return files_.file_B(f); }
  const StripeLayout& layout(FileId f) const { return files_.layout(f); }
  // The bytes of [offset, offset + bytes) of a file on each target, as (target, bytes): a
  // striped file's stripes; for an object, a share of each target's bytes (any slice of a
  // checkpoint is spread as the checkpoint is).
  std::vector<std::pair<size_t, double>> parts(FileId f, double offset, double bytes) const
  {
    return files_.parts(f, offset, bytes);
  }
  double used(size_t target) const { return files_.used(target); }
  double capacity_B() const { return grid_.capacity_B * static_cast<double>(grid_.targets()); }  // of all its disks
  // Takes capacity for bytes written without simulating the I/O (a checkpoint charged at its
  // measured cost); NoSpace when they do not fit.
  IoOutcome account(FileId f, size_t target, double bytes);
  // Bytes a phase charged at a measured cost instead of moving them through the servers
  // (a train phase's io_replay): reported apart from the bytes the servers moved.
  void charge(IoOp op, double bytes) { (op == IoOp::Write ? charged_written_ : charged_read_) += bytes; }
  // Bytes stored integrated over time until `end_s`, and the price per TB-month they pay.
  double stored_byte_seconds(double end_s) const { return files_.stored_byte_seconds(end_s); }
  double per_TB_month() const { return per_TB_month_; }

  // Asynchronous request; `done` runs in a service thread when it is over.
  void submit(TargetIo io, IoCallback done);
  // Room for `bytes` in the target's write cache; `admitted` runs when it is there (it must not
  // block). For forwarders, who take it before they move the bytes.
  void take_credit(size_t target, double bytes, std::function<void()> admitted);
  void give_credit(size_t target, double bytes);  // room taken by a forwarder that gave up
  // A write whose bytes a forwarder has brought to the server, with room taken: capacity is
  // checked, then it joins its disk's queue. `done` runs when it is on disk.
  void write_forwarded(const TargetIo& io, IoCallback done);

  // Blocking calls for actors, file level (storage_file_io.cpp): the parts on different targets
  // run in parallel; with a client_cache, a read asks the servers only for the bytes its client
  // does not hold.
  IoOutcome write(HostId client, FileId f, double offset, double bytes, double deadline);
  IoOutcome read(HostId client, FileId f, double offset, double bytes, double deadline);
  // Creates a file: the metadata RPC (when the service has a metadata service; false if it
  // failed or the deadline passed), then new_file().
  bool create(HostId client, const std::string& path, int64_t stripe_count, double deadline, FileId* file);
  // The same without blocking: `done(file)` runs when the file exists (the metadata service is
  // waited for when it is down).
  void create_async(HostId client, const std::string& path, int64_t stripe_count, std::function<void(FileId)> done);

 private:
  struct Server {
    std::unique_ptr<ServerPool> pool;
  };
  // A request on its way through credit, server thread and disk: each step's callback holds it
  // by one pointer rather than copies of the request and its callbacks.
  struct Request {
    TargetIo io;
    IoCallback done;
  };
  using RequestPtr = std::shared_ptr<Request>;
  void submit(const RequestPtr& r);
  void receive_write(const RequestPtr& r);  // in a server thread
  void write_to_disk(const RequestPtr& r);
  void read_from_disk(const RequestPtr& r);
  void send_read(const RequestPtr& r);  // in a server thread
  // A server thread's work on one request of `client`: its request_cost, then its bytes over the
  // network, no faster than the client's file system client passes them (client_bandwidth,
  // client_request_rate), and not over before a client thread's round trip since it was issued
  // (thread_request_rate).
  bool serve_request(const TargetIo& io, HostId from, HostId to, double deadline);
  // A request that met a host going down: started over when the server is back (if it waits
  // for it), or failed.
  void interrupted(const TargetIo& io, const IoCallback& done);
  void give_credit(const TargetIo& io);  // a write's room, if it has taken it
  IoOutcome take_space(FileId f, size_t target, double bytes);
  double clock_s() const;
  void give_back(FileId f, size_t target, double bytes);

  IoOutcome file_io(IoOp op, HostId client, FileId f, double offset, double bytes, double deadline);
  struct PendingIo;                            // a file-level request's parts in flight
  void drop_cache_if_rebooted(HostId client);  // a host that went down lost its page cache

  TargetGrid grid_;
  double stripe_B_;
  StoredFiles files_;
  ClientPageCache cache_;                                             // of the client hosts
  std::unordered_map<uint64_t, std::shared_ptr<PendingIo>> reading_;  // file-level reads in flight, by id
  uint64_t next_read_id_ = 0;
  std::unordered_map<HostId, double> cache_checked_s_;  // when each client last used its page cache
  double write_cache_B_;
  double request_cost_s_;                             // per request, in a server thread
  double client_Bps_;                                 // per client host; 0: no limit
  double client_request_s_;                           // per request, per client host, in series
  double thread_request_s_;                           // the shortest a request lasts
  std::unordered_map<HostId, double> client_free_s_;  // when a client's file system client is free
  MetadataService* metadata_ = nullptr;
  const Platform* platform_  = nullptr;
  HostFaults* faults_        = nullptr;
  std::vector<Server> servers_;
  double per_TB_month_ = 0;
  std::vector<std::unique_ptr<DiskWorker>> disks_;  // per target
  std::vector<TargetCredit> credits_;               // per target
  double written_B_ = 0, read_B_ = 0, cached_read_B_ = 0;
  double charged_written_ = 0, charged_read_ = 0;
};

}  // namespace llsim
