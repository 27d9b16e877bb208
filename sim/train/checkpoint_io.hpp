// One checkpoint I/O operation of a training job, carried out through the services. Each
// writer of the plan (io_plan.hpp) moves its pieces in requests of `request` bytes through its
// streams: with at least as many pieces as I/O processes, a stream is one process taking its
// pieces in turn request by request (as striping deals consecutive stripes to consecutive
// targets); when the layout merged several processes' files into one piece, those processes
// are one stream at their combined bandwidth. A parallel-file-system write first creates each
// piece's files, then each request goes through the writer's forwarding node to the piece's
// target (or straight to the storage server without a forwarding service). A stream has one
// request leaving its node at a time, at most at its processes' `process_Bps`, and issues its
// next write as soon as the previous one has left (write-behind); a read keeps `read_ahead`
// requests in flight per stream.
// Node-local levels write each writer's bytes to its own node's disks, or to its partner's (the
// next writer's node), through the node-local storage service. A node-local read takes each
// writer's part from its own node, and a lost writer's (its own copy died with its node) from
// its partner's. A node that is down has been replaced by a spare, whose disks are not
// simulated (the platform has no spare hosts): its part of a node-local operation is taken to
// go as fast as the others', which run in parallel with it, rather than wait for the failed
// node to come back. The spare takes the failed node's place in the network.
// Driven by the services' completions: nothing here waits but the caller of wait().
#pragma once
#include "sim/svc/forwarding.hpp"
#include "sim/svc/storage.hpp"
#include "sim/train/checkpoint_mode.hpp"
#include "sim/train/io_plan.hpp"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace llsim {

class HostFaults;
class Platform;
class WaitPoint;

struct IoRoute {
  const Platform& platform;
  const GroupSpec& nodes;         // the job's compute nodes
  ForwardingService* forwarding;  // null: the nodes reach the storage service directly
  StorageService& pfs;
  StorageService* local;  // node-local levels (multilevel modes)
  HostFaults& faults;     // which nodes are down (on a spare)
  double request_B;
  double process_Bps;  // what one I/O process moves at most
  size_t read_ahead;
  std::string name;  // of the phase: actor labels and file paths
};

class CheckpointIo : public std::enable_shared_from_this<CheckpointIo> {
 public:
  // Starts `kind` now, with each writer's bytes times `scale` (times `share` for a PartnerCopy),
  // written to (read from) `object` of the storage service that `kind` goes to. `lost`: writers
  // whose own node-local copy is gone (a LocalRead reads their parts from their partners).
  static std::shared_ptr<CheckpointIo> start(const IoRoute& route, const IoPlan& plan, IoKind kind, double share,
                                             double scale, FileId object, int64_t checkpoint,
                                             const std::set<size_t>& lost);
  ~CheckpointIo();

  bool finished() const { return finished_; }
  double end_s() const { return end_s_; }
  // Blocks the calling actor until the operation is over or `deadline`; true when it is over.
  bool wait(double deadline);
  // Stops issuing requests (the job failed); requests in progress end on their own, unheeded.
  void cancel() { cancelled_ = true; }
  // NoSpace when a disk was full (the run cannot go on); Done otherwise.
  const IoOutcome& failure() const { return failure_; }

 private:
  struct Piece {
    std::vector<size_t> targets;  // requests go to them in turn
    double left_B;                // not yet issued
    size_t next = 0;              // next of `targets`
    bool open   = false;          // its files exist (created or opened)
    size_t writer;                // its streams are the writer's
    std::string path;
    int64_t files;
  };
  struct Stream {
    HostId client;
    size_t forwarder;
    double rate_Bps;             // at most
    std::vector<size_t> pieces;  // taken in turn, one request each
    size_t next        = 0;      // next of `pieces`
    size_t outstanding = 0;      // issued, not completed
    size_t sending     = 0;      // writes whose bytes have not left the node yet
  };
  CheckpointIo(const IoRoute& route, IoKind kind, FileId object);
  void build(const IoPlan& plan, double share, double scale, int64_t checkpoint, const std::set<size_t>& lost);
  void add_writer(HostId client, size_t forwarder, int64_t processes, const std::vector<size_t>& pieces);
  void open_files();  // then the data
  void opened(size_t piece);
  void issue(size_t stream);
  void completed(size_t stream, const IoOutcome& o);
  StorageService& storage() const;

  const IoRoute& route_;
  IoKind kind_;
  FileId object_;
  std::vector<Piece> pieces_;
  std::vector<Stream> streams_;
  std::vector<std::pair<size_t, size_t>> streams_of_writer_;  // [first, last) of streams_
  size_t outstanding_ = 0;                                    // requests issued, not completed
  size_t unissued_    = 0;                                    // pieces with bytes not issued yet
  bool finished_      = false;
  bool cancelled_     = false;
  double end_s_       = 0;
  IoOutcome failure_;
  std::unique_ptr<WaitPoint> over_;
};

}  // namespace llsim
